import Foundation
import Testing
import TestSupport

/// `healthctl chart` against a real healthd: imported samples per day, in the user's preferred
/// unit (body mass saved in lb is charted in kg), sized to --width.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ChartEndToEndTests {
    @Test func importedSamplesAreChartedPerDayInThePreferredUnit() async throws {
        let broker = try BrokerProcess()
        let fixture = broker.root + "/hostile.xml"
        try Data(HostileExportFixture.xml.utf8).write(to: URL(fileURLWithPath: fixture))
        #expect(try await broker.healthctl(["import", fixture, "--characteristics", "no"]).status == 0)

        let heart = try await broker.healthctl(["chart", "heartRate", "--from", "2024-04-30", "--to", "2024-05-02", "--width", "60"])
        #expect(heart.status == 0, "\(heart)")
        let lines = heart.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "a title, the legend and one line per day: \(heart.stdout)")
        #expect(lines.dropFirst(2).allSatisfy { $0.count <= 60 })
        #expect(lines[1].hasSuffix("in count/min"), "\(heart.stdout)")
        #expect(lines.contains { $0.hasPrefix("2024-05-01") && $0.hasSuffix("73 / 107 / 142") }, "\(heart.stdout)")

        let mass = try await broker.healthctl(["chart", "bodyMass", "--from", "2024-05-01", "--to", "2024-05-01", "--width", "60"])
        #expect(mass.stdout.contains("68.2 / 68.2 / 68.2") && mass.stdout.contains("in kg"), "150.3 lb in kg: \(mass)")
        let pounds = try await broker.healthctl(["chart", "bodyMass", "--from", "2024-05-01", "--to", "2024-05-01", "--unit", "lb"])
        #expect(pounds.stdout.contains("150 / 150 / 150") && pounds.stdout.contains("in lb"), "150.3 lb, whole above 100: \(pounds)")

        let steps = try await broker.healthctl(["chart", "stepCount", "--from", "2024-05-01", "--to", "2024-05-01", "--width", "60"])
        #expect(steps.stdout.contains("█") && steps.stdout.contains("1234") && steps.stdout.contains("in count"), "\(steps)")

        let none = try await broker.healthctl(["chart", "stepCount", "--from", "2023-01-01", "--to", "2023-01-02"])
        #expect(none.status == 0 && none.stdout.lowercased().contains("no step count samples"), "\(none)")
    }
}
