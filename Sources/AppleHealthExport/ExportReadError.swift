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

    public var description: String {
        switch self {
        case let .notAnExport(path, reason): "\(path) is not an Apple Health export: \(reason)"
        case let .malformed(file, line, column, reason): "\(file):\(line):\(column): malformed XML: \(reason)"
        case let .invalidElement(file, element, line, reason): "\(file):\(line): <\(element)> \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        }
    }
}
