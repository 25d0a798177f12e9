import Foundation
import HealthModel
import Testing
import TestSupport

/// Issue 15's query APIs (engineer "records"), written as Apple documents them.
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkquery/predicateforobjectswithnocorrelation():
    /// "matches all objects that are not associated with any HealthKit correlations". Another
    /// app saved one blood-pressure reading (a correlation) and one systolic sample alone. A
    /// reader of both pressure types sees the reading, so only the lone sample matches; a reader
    /// of systolic alone cannot see the correlation (DESIGN.md §7.3: it must look absent), so
    /// both systolic samples match, as if the reading had been saved as two loose samples.
    @Test func noCorrelationMatchesTheLoneReadingAndTreatsAHiddenCorrelationAsAbsent() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.snippet-pressure-writer")
        let reader = try await broker.installClient("org.test.snippet-pressure-reader")
        let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
        let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
        for type in [systolic, diastolic] { try await broker.set(writer, "share", type, allowed: true) }
        #expect(try await broker.runApp(writer, ["save-blood-pressure", "120", "80", "1700000000"]).okValue != nil)
        #expect(try await broker.runApp(writer, ["save", systolic, "125", "mmHg", "1700000600", "1700000600"]).okValue != nil)

        // The writer sees its own correlation.
        let own = try await broker.runApp(writer, ["snippet", "uncorrelated-systolic"])
        #expect(own.okValue == "2 1", "\(own)")

        try await broker.set(reader, "read", systolic, allowed: true)
        try await broker.set(reader, "read", diastolic, allowed: false)
        let systolicOnly = try await broker.runApp(reader, ["snippet", "uncorrelated-systolic"])
        #expect(systolicOnly.okValue == "2 2", "\(systolicOnly)")

        try await broker.set(reader, "read", diastolic, allowed: true)
        let both = try await broker.runApp(reader, ["snippet", "uncorrelated-systolic"])
        #expect(both.okValue == "2 1", "\(both)")
    }
}
