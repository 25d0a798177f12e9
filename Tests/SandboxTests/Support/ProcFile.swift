import Foundation

/// Reads a /proc file. `String(contentsOfFile:)` trusts the size stat reports,
/// which is 0 for /proc files, and stops after one page; reading to the end
/// of the file gets all of it.
enum ProcFile {
    enum Failure: Error, CustomStringConvertible {
        case cannotOpen(path: String)

        var description: String {
            switch self {
            case .cannotOpen(let path): "cannot open \(path)"
            }
        }
    }

    static func contents(of path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure.cannotOpen(path: path)
        }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
