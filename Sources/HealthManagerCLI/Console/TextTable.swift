/// A plain table: a header row and aligned columns separated by two spaces. No borders, so
/// the output stays easy to read in a terminal and to cut with awk.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public struct Column: Sendable {
        public var title: String
        public var alignment: Alignment

        public init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    public let columns: [Column]
    public private(set) var rows: [[String]] = []

    public init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing trailing cells are empty, extra cells are a programming error. Cells
    /// often hold what apps wrote (source and device names): each is shown through
    /// `TerminalText`, so no cell can move the cursor, restyle the terminal or forge a row.
    public mutating func append(_ cells: [String]) {
        precondition(cells.count <= columns.count, "row has more cells than the table has columns")
        rows.append(cells.map(TerminalText.shown) + Array(repeating: "", count: columns.count - cells.count))
    }

    /// The table as lines ending in a newline. `emphasize` styles the header (bold on a terminal).
    public func rendered(emphasize: (String) -> String = { $0 }) -> String {
        let widths = columns.indices.map { index in
            rows.reduce(columns[index].title.count) { max($0, $1[index].count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return columns[index].alignment == .left ? cells[index] + padding : padding + cells[index]
            }
            let joined = padded.joined(separator: "  ")
            return String(joined.reversed().drop(while: { $0 == " " }).reversed())
        }
        var text = emphasize(line(columns.map(\.title))) + "\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }
}
