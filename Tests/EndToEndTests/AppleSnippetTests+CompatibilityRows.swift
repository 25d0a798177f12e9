import Foundation
import HealthModel
import Testing
import TestSupport

/// Rows of docs/healthkit-compatibility.md closed in session 10, written as Apple documents them
/// (Tests/EndToEndClient/CompatibilityRowSnippets.swift) and run as sandboxed apps against a real
/// healthd.
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hksamplepredicate/stateofmind(_:) and
    /// …/heartbeatseries(_:) ("Returns a sample predicate that matches heartbeat series samples"):
    /// a sample query descriptor built with each factory returns the kind's samples, as its class,
    /// with their values (and nothing of the other kind).
    @Test func stateOfMindAndHeartbeatDescriptorsReturnTheirKind() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-kind-descriptors")
        for type in [HKDataTypeIdentifierStateOfMind, HKDataTypeIdentifierHeartbeatSeries] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["row-snippet", "kind-descriptors"])
        #expect(result.okValue == "1 1", "\(result)")
        #expect(result.lines.contains("mind \(HKStateOfMindKind.dailyMood.rawValue) 0.25"), "\(result)")
        #expect(result.lines.contains("series 3"), "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkworkoutroutebuilder/addmetadata(_:completion:)
    /// ("Adds metadata to the builder", both forms) and …/hkworkoutroutequery/init(route:dateinterval:datahandler:)
    /// ("Returns a query for the workout route data within the provided date interval"): the saved
    /// route carries the metadata added while recording, the finish's value winning for a key both
    /// name; the query and its descriptor read exactly the locations inside the window, bounds
    /// included; a finished builder refuses more metadata.
    @Test func routeMetadataIsSavedAndADateIntervalReadsOnlyItsLocations() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-route-rows")
        for type in [HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["row-snippet", "route-rows", "30"])
        #expect(result.okValue == "30 10", "\(result)")
        #expect(result.lines.contains("metadata org.test.group=north org.test.trail=ridge org.test.weather=sunny"), "\(result)")
        let expected = try #require(result.lines.first { $0.hasPrefix("expected ") }?.dropFirst("expected ".count), "\(result)")
        #expect(expected.hasPrefix("10:"), "\(result)")
        #expect(result.lines.contains("window \(expected)"), "\(result)")
        #expect(result.lines.contains("descriptor \(expected)"), "\(result)")
        #expect(result.lines.contains("late-metadata refused \(HKError.Code.errorInvalidArgument.rawValue)"), "\(result)")
    }
}
