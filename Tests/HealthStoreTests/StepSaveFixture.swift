import Foundation
import HealthModel

@testable import HealthStore

/// One app saving step counts, as the WAL, nonce and commit-watcher suites save them into a real
/// encrypted store: the app's source, its access-log entry and a sample a minute from a fixed date.
enum StepSaveFixture {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let app = "org.example.app"
    static let source = SourceRecord(bundleIdentifier: app, name: "App", version: "1")
    static let draft = AccessLogEntryDraft(actor: app, appID: app, action: .write, types: [steps])

    /// The `index`th minute's sample, 30 s long, of `value` (the index when not given).
    static func sample(_ index: Int, type: String = steps, unit: String = "count", value: Double? = nil,
                       device: DeviceRecord? = nil) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(30),
                            value: .quantity(value ?? Double(index), unit: unit), device: device)
    }
}
