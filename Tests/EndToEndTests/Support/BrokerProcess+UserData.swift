import Foundation
import TestSupport

/// What the user does with `healthctl` in the re-read suites: their own samples (a source every
/// reader with read permission sees, or that a reader without it cannot), and healthd's count of
/// answers read again. Only the trusted manager tools reach the admin socket, so a test asks
/// healthctl as the user would.
extension BrokerProcess {
    /// `healthctl status`'s "Answers read again" row: stalled multi-frame answers healthd read
    /// again since it started, counted where every reading again begins (`StreamVisibility.refresh`).
    func answersReadAgain() async throws -> Int {
        let result = try await healthctl(["status"])
        guard result.status == 0,
              let row = result.lines.first(where: { $0.hasPrefix("Answers read again:") }),
              let count = row.split(separator: " ").last.flatMap({ Int($0) }) else { throw CommandFailed(result: result) }
        return count
    }

    /// `healthctl add TYPE VALUE UNIT --start --end` (whole seconds, UTC): the user's own sample; its UUID.
    func addUserSample(_ type: String, _ value: Double, _ unit: String, from start: Date, to end: Date) async throws -> UUID {
        let result = try await healthctl(["add", type, "\(value)", unit, "--start", Self.iso(start), "--end", Self.iso(end)])
        guard result.status == 0,
              let open = result.stdout.lastIndex(of: "("), let close = result.stdout.lastIndex(of: ")"), open < close,
              let uuid = UUID(uuidString: String(result.stdout[result.stdout.index(after: open)..<close])) else {
            throw CommandFailed(result: result)
        }
        return uuid
    }

    /// `healthctl delete UUID --yes`: the user deletes one sample.
    func deleteUserSample(_ uuid: UUID) async throws {
        let result = try await healthctl(["delete", uuid.uuidString.lowercased(), "--yes"])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }

    /// `2026-11-27T22:05:03Z`: a date as healthctl takes it, to the whole second (rounded down).
    static func iso(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
