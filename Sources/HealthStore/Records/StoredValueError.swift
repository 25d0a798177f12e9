/// A row holds a value this code cannot read back: written by a newer version of healthd, or
/// by a bug. (Damage on disk is caught earlier, by the page cipher.) Names the table only,
/// never the value.
struct StoredValueError: Error, CustomStringConvertible {
    let table: String

    var description: String { "a row of \(table) holds a value this version of healthd cannot read" }
}
