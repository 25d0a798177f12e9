/// Why an export could not be read, with what a person needs to find the problem: the file,
/// and for malformed content the line and column.
public enum ExportReadError: Error, Equatable, CustomStringConvertible {
    /// The path is neither an export.zip, a folder holding export.xml, nor an export.xml.
    case notAnExport(path: String, reason: String)
    /// The XML itself is broken (as libxml2 reports it).
    case malformed(file: String, line: Int, column: Int, reason: String)
    /// Well-formed XML whose element lacks what the export format requires (a date, a type).
    case invalidElement(file: String, element: String, line: Int, reason: String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// The zipped `entry` inflated past the size its zip header declares (the bound its working
    /// copy is checked against): the archive is damaged or crafted, and reading stopped there,
    /// before any record was imported.
    case inflatesPastDeclaredSize(archive: String, entry: String, declaredBytes: UInt64)
    /// An offset or size in the zip's directory points outside the file (`ZipBoundsCheck`):
    /// the archive is damaged or crafted, and it was refused before anything in it was read.
    case damagedZip(path: String, reason: String)

    public var description: String {
        switch self {
        case let .notAnExport(path, reason): "\(path) is not an Apple Health export: \(reason)"
        case let .malformed(file, line, column, reason): "\(file):\(line):\(column): malformed XML: \(reason)"
        case let .invalidElement(file, element, line, reason): "\(file):\(line): <\(element)> \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .inflatesPastDeclaredSize(archive, entry, declaredBytes):
            "\(archive): \(entry) inflates past the \(declaredBytes) bytes its zip header declares, so the archive is "
                + "damaged or was made to mislead; reading stopped there and nothing was imported. Export again from "
                + "the Health app (your picture, then Export All Health Data) and import the new export.zip"
        case let .damagedZip(path, reason):
            "\(path): damaged zip: \(reason). Nothing was read from it. Export again from the Health app (your "
                + "picture, then Export All Health Data) and import the new export.zip"
        }
    }
}
