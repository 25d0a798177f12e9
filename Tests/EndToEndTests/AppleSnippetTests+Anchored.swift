import Foundation
import Testing
import TestSupport

/// Anchored queries over several types (Tests/EndToEndClient/AppleSnippets+Anchored.swift),
/// written as Apple documents them and run as a sandboxed app against a real healthd.
extension AppleSnippetTests {
    static let anchoredSteps = "HKQuantityTypeIdentifierStepCount"
    static let anchoredHeartRate = "HKQuantityTypeIdentifierHeartRate"

    /// A reader that saved steps and may read steps and heart rate, and a writer that then saved
    /// heart rate: the reader's store, in change order, is steps then heart rate.
    func stepsThenHeartRate(_ broker: BrokerProcess, reader: String) async throws -> String {
        let writer = try await broker.installClient("org.test.snippet-anchored-writer")
        try await broker.set(reader, "share", Self.anchoredSteps, allowed: true)
        try await broker.set(writer, "share", Self.anchoredHeartRate, allowed: true)
        for type in [Self.anchoredSteps, Self.anchoredHeartRate] { try await broker.set(reader, "read", type, allowed: true) }
        #expect(try await broker.runApp(reader, ["save", Self.anchoredSteps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        #expect(try await broker.runApp(writer, ["save", Self.anchoredHeartRate, "60", "count/min", "1700000000", "1700000000"]).okValue != nil)
        return writer
    }

    /// developer.apple.com/documentation/healthkit/hkanchoredobjectquery/init(querydescriptors:anchor:limit:resultshandler:):
    /// "Creates an anchored object query that matches any of the query descriptors you
    /// provided"; with an `updateHandler` it keeps running (developer.apple.com/documentation/
    /// healthkit/hkanchoredobjectquery/updatehandler). The initial results hold both types in the
    /// order they were saved; an update brings the next change of either.
    @Test func anAnchoredQueryOverTwoDescriptorsDeliversBothTypesThenUpdates() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.snippet-anchored")
        let writer = try await stepsThenHeartRate(broker, reader: reader)
        let live = try LiveApp(reader, ["snippet", "anchored-descriptors"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery 1 initial \(Self.anchoredSteps),\(Self.anchoredHeartRate)"), "\(live.lines)")
        #expect(try await broker.runApp(writer, ["save", Self.anchoredHeartRate, "61", "count/min", "1700000100", "1700000100"]).okValue != nil)
        let result = await live.finish()
        #expect(result.lines.contains("delivery 2 update \(Self.anchoredHeartRate)"), "\(result)")
        #expect(result.okValue == "2", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkanchoredobjectquerydescriptor and
    /// …/init(predicates:anchor:limit:): "To query for multiple types of data, provide a sample
    /// predicate for each type." `result(for:)` returns both types; `results(for:)` from its
    /// anchor first answers with nothing new, then with the next change as it happens.
    @Test func theAsyncDescriptorWithTwoPredicatesReadsAndFollowsBothTypes() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.snippet-anchored-async")
        let writer = try await stepsThenHeartRate(broker, reader: reader)
        let live = try LiveApp(reader, ["snippet", "anchored-descriptor-async"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("results 1 -"), "\(live.lines)")
        #expect(try await broker.runApp(writer, ["save", Self.anchoredHeartRate, "61", "count/min", "1700000100", "1700000100"]).okValue != nil)
        let result = await live.finish()
        #expect(result.lines.contains("result \(Self.anchoredSteps),\(Self.anchoredHeartRate)"), "\(result)")
        #expect(result.lines.contains("results 2 \(Self.anchoredHeartRate)"), "\(result)")
        #expect(result.okValue == "2", "\(result)")
    }
}
