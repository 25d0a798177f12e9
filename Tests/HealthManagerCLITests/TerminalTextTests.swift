import Foundation
import HealthIPC
@testable import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// Strings apps wrote (source and device names here; the same for every table cell) reach the
/// user's terminal through `healthctl`: stored exactly, shown escaped where a character would
/// act on the terminal instead of being shown. Generated: every C0 and C1 control, DEL, every
/// bidirectional formatting character and the line/paragraph separators, each alone inside an
/// otherwise plain name, through `healthctl samples` (table and --json) from a broker answering
/// over the real socket protocol. Session 16: the table printed them raw (an app could set the
/// terminal's title, clear the screen or forge a row; U+202E turned the rest of a line around).
@Suite(.timeLimit(.minutes(10))) struct TerminalTextTests {
    static let unsafe: [Unicode.Scalar] = (Array(0x01 ... 0x1F) + Array(0x7F ... 0x9F)
        + [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029])
        .compactMap(Unicode.Scalar.init)
    /// Shown as they are: right-to-left script, emoji, combining marks, a zero-width joiner.
    static let safe = ["שלום", "مرحبا", "🫀", "e\u{301}", "👩\u{200D}⚕️", "naïve"]
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    static func sample(name: String, index: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_714_552_200 + Double(index))
        return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: start, endDate: start,
                            value: .quantity(60, unit: "count/min"), device: DeviceRecord(name: "dev" + name + "ice"),
                            source: SourceRecord(bundleIdentifier: "org.example.app", name: "app" + name + "name", version: "1"))
    }

    @Test func everyUnsafeCharacterIsEscapedInTablesAndKeptExactlyInJSON() async throws {
        let names = Self.unsafe.map { String($0) } + Self.safe
        let samples = names.enumerated().map { Self.sample(name: $1, index: $0) }
        let server = try SampleOutputEdgeCaseTests.broker(samples)
        defer { server.stop() }

        let table = await runHealthCtl(["samples", "--socket", server.socketPath, "heart-rate"])
        #expect(table.exitCode == 0, "\(table.errors)")
        let lines = table.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == samples.count + 1, "a name forged or joined rows")  // the header
        for scalar in Self.unsafe where scalar != "\n" {
            #expect(!table.output.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) reached the terminal")
        }
        for scalar in Self.unsafe {
            #expect(table.output.contains("app" + scalar.escaped(asASCII: true) + "name"), "U+\(String(scalar.value, radix: 16)) not shown escaped")
        }
        for name in Self.safe {
            #expect(table.output.contains("app" + name + "name"), "\(name) changed")
            #expect(table.output.contains("dev" + name + "ice"), "\(name) changed")
        }

        // JSON is data, not display: the stored strings come back exactly.
        let json = await runHealthCtl(["samples", "--socket", server.socketPath, "heart-rate", "--json"])
        #expect(json.exitCode == 0, "\(json.errors)")
        let jsonLines = json.output.split(separator: "\n")
        #expect(jsonLines.count == samples.count)
        let devices = try jsonLines.map { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["device"] as? [String: Any])?["name"] as? String
        }
        #expect(Set(devices.compactMap { $0 }) == Set(names.map { "dev" + $0 + "ice" }))
    }

    @Test func shownLeavesPlainTextAloneAndEscapesEachUnsafeCharacter() {
        for name in Self.safe + ["plain", ""] { #expect(TerminalText.shown(name) == name) }
        for scalar in Self.unsafe {
            let shown = TerminalText.shown("a" + String(scalar) + "b")
            #expect(shown == "a" + scalar.escaped(asASCII: true) + "b")
            #expect(!shown.unicodeScalars.contains(where: TerminalText.isUnsafe))
        }
    }
}
