import Foundation
import HealthModel
import HealthStore

/// `step`'s "group" command (PowerLossTests): 1–8 single-sample saves at once through the
/// store's group-commit queue (`SampleRepository.insert`, each with its access-log entry), as
/// healthd makes them for concurrent apps — a lone one commits on its caller's thread, overlapping
/// ones share commits. Each save's UUID is announced once its insert has returned.
enum GroupSaves {
    static let stepCount = "HKQuantityTypeIdentifierStepCount"

    static func run(_ database: HealthDatabase, saves: Int) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<saves {
                    group.addTask {
                        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double.random(in: 0..<10_000_000))
                        let record = SampleRecord(uuid: UUID(), typeIdentifier: stepCount, startDate: start,
                                                  endDate: start.addingTimeInterval(60), value: .quantity(Double(index), unit: "count"))
                        let entry = AccessLogEntryDraft(actor: "org.test.power\(index % 3)", appID: "org.test.power\(index % 3)",
                                                        action: .write, types: [stepCount])
                        do {
                            let source = SourceRecord(bundleIdentifier: "org.test.power\(index % 3)", name: "Power \(index % 3)")
                            for uuid in try await database.samples.insert([record], source: source, accessLog: entry) {
                                announce(uuid.uuidString)
                            }
                        } catch {
                            failure.set("\(error)")
                        }
                    }
                }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message { throw GroupSaveFailed(message: message) }
    }

    struct GroupSaveFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "a grouped save failed: \(message)" }
    }

    /// The first failure of a concurrent save.
    final class FailureBox: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var first: String?

        func set(_ message: String) { lock.withLock { first = first ?? message } }
        var message: String? { lock.withLock { first } }
    }
}
