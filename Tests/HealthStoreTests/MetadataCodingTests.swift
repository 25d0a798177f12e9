import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// Metadata's JSON is written by hand on the insert path (`MetadataCoding.encode`, issue 17) and
/// read by `JSONDecoder` and by SQLite's JSON functions (metadata predicates). Values that need
/// escaping or are at the edges of `Double` must come back exactly, through a real encrypted
/// store, and a predicate must find a string that needed escaping.
@Suite(.timeLimit(.minutes(10))) struct MetadataCodingTests {
    static let source = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")
    static let awkward = "quote \" backslash \\ slash / newline \n tab \t nul \u{0} bell \u{7} unit \u{1F} del \u{7F} é 🫀 \u{2028}"

    static let metadata: [String: MetadataValue] = [
        "text": .string(awkward),
        "empty": .string(""),
        "key \"with\" \\ and \n": .string("value"),
        "tiny": .number(5e-324),
        "huge": .number(1.7976931348623157e308),
        "negativeZero": .number(-0.0),
        "fraction": .number(0.1),
        "integral": .number(130),
        "infinite": .number(.infinity),
        "negativeInfinite": .number(-.infinity),
        "date": .date(Date(timeIntervalSince1970: -1.000001)),
        "weight": .quantity(value: 70.25, unit: "kg"),
        "yes": .bool(true),
        "no": .bool(false),
    ]

    @Test func everyValueComesBackExactlyThroughTheStore() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: start,
                                  endDate: start, value: .quantity(1, unit: "count/s"), metadata: Self.metadata)
        _ = try await database.samples.insert([sample], source: Self.source)

        var read: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: sample.typeIdentifier), scope: .allSources) { read += $0 }
        #expect(read.count == 1)
        let stored = try #require(read.first).metadata
        #expect(stored.keys.sorted() == Self.metadata.keys.sorted())
        for (key, value) in Self.metadata {
            if case let .number(expected) = value, case let .number(got)? = stored[key] {
                // Bit for bit: -0.0 == 0.0 would hide a lost sign.
                #expect(got.bitPattern == expected.bitPattern, "\(key): \(got) for \(expected)")
            } else {
                #expect(stored[key] == value, "\(key)")
            }
        }

        for (key, value) in [("text", MetadataValue.string(Self.awkward)), ("key \"with\" \\ and \n", .string("value")),
                             ("tiny", .number(5e-324)), ("yes", .bool(true))] {
            var matched = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: sample.typeIdentifier, predicate: .metadata(key: key, .oneOf([value]))),
                                       scope: .allSources) { matched += $0.count }
            #expect(matched == 1, "metadata predicate on \(key)")
        }
    }

    /// The text is JSON a standard parser reads to the same values as the decoder does.
    @Test func theTextIsValidJSON() throws {
        let text = try #require(MetadataCoding.encode(Self.metadata))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(Set(parsed?.keys ?? [:].keys) == Set(Self.metadata.keys))
        #expect(try MetadataCoding.decode(text).count == Self.metadata.count)
        #expect(MetadataCoding.encode([:]) == nil)
    }
    /// The insert path encodes into one buffer reused from row to row (`SampleInserter`): every
    /// row's text must be what a fresh encoding makes, whatever the row before left in the buffer,
    /// and every control byte, quote and backslash must come back (generated: each of U+0000 to
    /// U+001F, in keys and values, after rows of every length).
    @Test func aReusedBufferEncodesEachRowAsAFreshOneWould() throws {
        var rows: [[String: MetadataValue]] = [Self.metadata, [:], ["a": .bool(true)]]
        for scalar in 0 ..< 0x20 {
            let text = "x\(Character(Unicode.Scalar(UInt8(scalar))))\"\\é"
            rows.append([text: .string(text), "n\(scalar)": .number(Double(scalar) / 3)])
        }
        var buffer: [UInt8] = Array(repeating: UInt8(ascii: "z"), count: 10_000)
        for row in rows {
            let wrote = MetadataCoding.encode(row, into: &buffer)
            let fresh = MetadataCoding.encode(row)
            #expect(wrote == (fresh != nil))
            #expect(wrote ? String(decoding: buffer, as: UTF8.self) == fresh : buffer.isEmpty)
            guard let fresh else { continue }
            #expect(try JSONSerialization.jsonObject(with: Data(fresh.utf8)) is [String: Any])
            #expect(try MetadataCoding.decode(fresh) == row)
        }
    }

    /// The storage charge's measure of the text (`encodedLength`) is its exact length where no
    /// number is in it, and never less where one is (numbers count at their longest form): every
    /// control byte, quote and backslash, multi-byte characters, dates before 1970.
    @Test func theEncodedLengthIsTheTextsLengthAndNeverLess() throws {
        var rows: [[String: MetadataValue]] = [Self.metadata, [:], ["a": .bool(true)], ["b": .bool(false)],
                                               ["d": .date(Date(timeIntervalSince1970: -1_234.5))], ["e": .date(Date(timeIntervalSince1970: 0))]]
        for scalar in 0 ..< 0x20 {
            let text = "x\(Character(Unicode.Scalar(UInt8(scalar))))\"\\é"
            rows.append([text: .string(text + text), "q\(scalar)": .quantity(value: Double(scalar) / 3, unit: text)])
            rows.append([text: .string(text)])
        }
        rows.append(["n": .number(-2.2250738585072014e-308), "m": .number(.nan), "p": .number(-.infinity)])
        for row in rows {
            let stored = MetadataCoding.encode(row)?.utf8.count ?? 0
            let hasNumber = row.values.contains { if case .number = $0 { true } else if case .quantity = $0 { true } else { false } }
            if hasNumber {
                #expect(MetadataCoding.encodedLength(row) >= stored, "\(row)")
            } else {
                #expect(MetadataCoding.encodedLength(row) == stored, "\(row)")
            }
        }
    }
}
