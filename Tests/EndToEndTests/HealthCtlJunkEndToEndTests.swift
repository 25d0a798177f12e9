import Foundation
import HealthModel
import Testing
import TestSupport

/// Junk through the manager's write commands: the real `healthctl` against a real healthd, one
/// argument varied at a time from a valid command — `add`, `medications add`/`log-dose`,
/// `activity goals set`, `characteristics set`, `units set` — over NaN, ±inf, 1e308, negatives,
/// zero, a unit 10^±564 from its base unit, dates outside 1900–2200, control characters and
/// over-long text. Each must exit non-zero with a message naming what is wrong and store nothing;
/// valid extremes (a heart rate of 300, a medication named in Hebrew behind a bidi override) are
/// stored exactly; healthd answers afterwards.
@Suite(.timeLimit(.minutes(10)), .serialized) struct HealthCtlJunkEndToEndTests {
    /// (arguments, text the refusal must contain).
    static func refused(concept: String) -> [([String], String)] {
        [
            (["add", "heartRate", "nan", "count/min"], "not a number"),
            (["add", "heartRate", "inf", "count/min"], "not a number"),
            (["add", "heartRate", "1e308", "count/min"], "outside the allowed range"),
            (["add", "heartRate", "0", "count/min"], "outside the allowed range"),
            (["add", "heartRate", "0", "count·ps^23/Ts^24"], "10^±60"),
            (["add", "bodyMass", "1", "Tg^24/pg^23"], "10^±60"),
            (["add", "heartRate", "60", "count/min", "--start", "1899-12-31T00:00"], "1900"),
            (["medications", "add", "\u{1B}[2Jaspirin"], "control character"),
            (["medications", "add", String(repeating: "x", count: 257)], "longer than"),
            (["medications", "add", "aspirin", "--form", "cloud"], "is not a form"),
            (["medications", "log-dose", concept, "--dose", "nan"], "doseQuantity"),
            (["medications", "log-dose", concept, "--dose", "1e308"], "doseQuantity"),
            (["medications", "log-dose", concept, "--dose=-1"], "doseQuantity"),
            (["medications", "log-dose", concept, "--dose", "1", "--unit", "Tm^24/pm^23"], "unit"),
            (["activity", "goals", "set", "--move", "nankcal"], "move"),
            (["activity", "goals", "set", "--move", "1e308kcal"], "move"),
            (["activity", "goals", "set", "--move=-5kcal"], "move"),
            (["activity", "goals", "set", "--stand", "25h"], "stand"),
            (["characteristics", "set", "dateOfBirth", "1899-12-31"], "1900"),
            (["characteristics", "set", "dateOfBirth", "2999-01-01"], "today"),
            (["characteristics", "set", "bloodType", "Z+"], "not a valid blood type"),
            (["units", "set", "distanceWalkingRunning", "pm^24/Tm^23"], "10^±60"),
        ]
    }

    @Test func everyJunkArgumentIsRefusedNamingItAndValidExtremesAreStoredExactly() async throws {
        let broker = try BrokerProcess()
        let added = try await broker.healthctl(["medications", "add", "Aspirin"])
        #expect(added.status == 0, "\(added)")
        let listed = try await broker.healthctl(["medications", "list"])
        let concept = try #require(listed.stdout.split(separator: " ").first.map(String.init), "\(listed)")
        let before = try await Self.snapshot(broker)

        for (arguments, field) in Self.refused(concept: concept) {
            let result = try await broker.healthctl(arguments)
            #expect(result.status != 0, "\(arguments): accepted: \(result.stdout)")
            #expect(result.stderr.contains(field), "\(arguments): the refusal does not say \(field): \(result.stderr)")
        }
        #expect(try await Self.snapshot(broker) == before, "a refused command stored something")

        // Valid extremes, stored exactly.
        let rtl = "\u{202E}אספירין 💊"
        #expect(try await broker.healthctl(["medications", "add", rtl]).status == 0)
        // Listed back escaped (TerminalText): the override is shown, never obeyed (session 17:
        // `medications list` printed it raw, reversing the rest of the user's line).
        #expect(try await broker.healthctl(["medications", "list"]).stdout.contains("\\u{202E}אספירין 💊"))
        #expect(try await broker.healthctl(["add", "heartRate", "300", "count/min"]).status == 0)
        let rates = try await broker.healthctl(["samples", "heartRate", "--json"])
        // Kept in the canonical unit: 300 count/min is 5 count/s exactly.
        #expect(rates.stdout.contains("\"unit\":\"count/s\"") && rates.stdout.contains("\"value\":5"), "\(rates)")
        #expect(try await broker.healthctl(["status"]).status == 0)
    }

    /// What the commands above can change, as healthctl shows it.
    static func snapshot(_ broker: BrokerProcess) async throws -> [String] {
        var views: [String] = []
        for arguments in [["samples", "heartRate", "--json"], ["samples", "bodyMass", "--json"], ["medications", "list"],
                          ["activity", "goals", "show"], ["characteristics", "show"], ["units", "show"]] {
            views.append(try await broker.healthctl(arguments).stdout)
        }
        return views
    }
}
