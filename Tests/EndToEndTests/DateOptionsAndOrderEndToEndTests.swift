import Foundation
import Testing

/// `predicateForSamples` options exactly at the bounds, and sort descriptors with limits,
/// through a real healthd. Expected results are worked out by hand from the rules below and
/// compared as UUID lists in order (the UUIDs are the broker's, from the save).
///
/// The range [S, E] with options (a nil bound drops its condition):
/// - none:            end ≥ S and start < E   (the sample overlaps the range or touches S)
/// - strictStartDate: start ≥ S and start < E
/// - strictEndDate:   end ≥ S and end < E (so start < E too)
/// - both:            start ≥ S and end < E
/// (Apple, HKQueryOptions: strictStartDate — "the sample’s start time must be equal to or later
/// than the target’s start time, and … earlier than the target’s end time"; HKQueryOptionNone —
/// "the sample’s end time must be equal to or later than the target’s start time, and the
/// sample’s start time must be earlier than the target’s end time"; strictEndDate — the sample's
/// end time falls within the target period: endDate < E ∧ startDate < E, issue 15 item 1.)
/// Sorting: by the descriptors in order, then by the order the samples were saved — so ties,
/// ascending or descending, always come back in save order.
@Suite(.timeLimit(.minutes(10)), .serialized) struct DateOptionsAndOrderEndToEndTests {
    let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    /// The range: 2026-01-01 00:00–01:00 UTC.
    static let s = 1_767_225_600, e = 1_767_225_600 + 3_600

    /// Saves `samples` (label, start, end) in one save, in order; returns the label of each
    /// broker-assigned UUID.
    func save(_ broker: BrokerProcess, _ app: String, _ samples: [(String, Int, Int)]) async throws -> [String: String] {
        let arguments = samples.flatMap { _, start, end in ["--category", sleep, "1", "\(start)", "\(end)"] }
        let saved = try await broker.runApp(app, ["save-batch"] + arguments)
        let uuids = try #require(saved.okValue, "\(saved)").split(separator: " ").map(String.init)
        try #require(uuids.count == samples.count, "\(saved)")
        return Dictionary(uniqueKeysWithValues: zip(uuids, samples.map(\.0)))
    }

    /// The labels of `query-ordered`'s results, in order.
    func labels(_ broker: BrokerProcess, _ app: String, _ labelOfUUID: [String: String], _ arguments: [String]) async throws -> [String] {
        let result = try await broker.runApp(app, ["query-ordered", sleep] + arguments)
        #expect(result.okValue != nil, "\(result)")
        return result.lines.filter { $0.hasPrefix("uuid ") }.map { line in labelOfUUID[String(line.dropFirst(5))] ?? "?" }
    }

    @Test func eachOptionTreatsSamplesAtTheBoundsAsSpecified() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.date-options")
        try await broker.set(app, "share", sleep, allowed: true)
        try await broker.set(app, "read", sleep, allowed: true)
        let s = Self.s, e = Self.e
        let labelOfUUID = try await save(broker, app, [
            ("a", s - 60, s),         // ends exactly at S
            ("b", s - 60, s + 60),    // straddles S
            ("c", s, s),              // an instant at S
            ("d", s, e),              // exactly the range
            ("e", s + 60, e - 60),    // inside
            ("f", e - 60, e),         // ends exactly at E
            ("g", e, e),              // an instant at E
            ("h", e - 60, e + 60),    // straddles E
            ("i", e, e + 60),         // starts exactly at E
            ("j", s - 120, e + 120),  // spans the whole range
            ("k", s - 120, s - 60),   // before it
        ])
        let range = ["--start", "\(s)", "--end", "\(e)"]
        let table: [([String], [String])] = [
            (range, ["a", "b", "c", "d", "e", "f", "h", "j"]),
            (range + ["--strict-start"], ["c", "d", "e", "f", "h"]),
            (range + ["--strict-end"], ["a", "b", "c", "e"]),
            (range + ["--strict-start", "--strict-end"], ["c", "e"]),
            (["--start", "\(s)"], ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]),
            (["--start", "\(s)", "--strict-start"], ["c", "d", "e", "f", "g", "h", "i"]),
            (["--end", "\(e)"], ["a", "b", "c", "d", "e", "f", "h", "j", "k"]),
            (["--end", "\(e)", "--strict-end"], ["a", "b", "c", "e", "k"]),
            // A zero-length range at S: by default whatever starts before S and ends at or
            // after it (not the instant at S, which does not start before S); with a strict end
            // nothing (no end is both ≥ S and < S), and with both strict nothing either.
            (["--start", "\(s)", "--end", "\(s)"], ["a", "b", "j"]),
            (["--start", "\(s)", "--end", "\(s)", "--strict-end"], []),
            (["--start", "\(e)", "--end", "\(e)", "--strict-start", "--strict-end"], []),
        ]
        for (arguments, expected) in table {
            #expect(try await labels(broker, app, labelOfUUID, arguments) == expected, "\(arguments)")
        }
        // With a sort and a limit the predicate still applies first: the three latest ends of
        // the strict-end matches a, b, c, e (e ends at E − 60, b at S + 60, a and c at S: save order).
        #expect(try await labels(broker, app, labelOfUUID, range + ["--strict-end", "--sort", "end:desc", "--limit", "3"]) == ["e", "b", "a"])
    }

    @Test func sortKeysDirectionsAndLimitsGiveOneDeterministicOrder() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.sort-order")
        try await broker.set(app, "share", sleep, allowed: true)
        try await broker.set(app, "read", sleep, allowed: true)
        let t = Self.s
        // q and t are identical in both dates: only the save order tells them apart.
        let labelOfUUID = try await save(broker, app, [
            ("p", t, t + 600), ("q", t, t + 300), ("r", t + 60, t + 300), ("s", t + 60, t + 600), ("t", t, t + 300),
        ])
        let table: [([String], [String])] = [
            ([], ["p", "q", "r", "s", "t"]),
            (["--sort", "start:asc"], ["p", "q", "t", "r", "s"]),
            (["--sort", "start:desc"], ["r", "s", "p", "q", "t"]),
            (["--sort", "end:asc"], ["q", "r", "t", "p", "s"]),
            (["--sort", "end:desc"], ["p", "s", "q", "r", "t"]),
            (["--sort", "start:asc", "--sort", "end:desc"], ["p", "q", "t", "s", "r"]),
            (["--sort", "end:asc", "--sort", "start:desc"], ["r", "q", "t", "s", "p"]),
            (["--sort", "start:desc", "--limit", "3"], ["r", "s", "p"]),
            (["--sort", "end:desc", "--limit", "2"], ["p", "s"]),
            (["--sort", "start:asc", "--sort", "end:desc", "--limit", "4"], ["p", "q", "t", "s"]),
            (["--sort", "end:asc", "--limit", "1"], ["q"]),
            (["--limit", "2"], ["p", "q"]),
            (["--sort", "start:asc", "--limit", "9"], ["p", "q", "t", "r", "s"]),
        ]
        for (arguments, expected) in table {
            #expect(try await labels(broker, app, labelOfUUID, arguments) == expected, "\(arguments)")
        }
    }
}
