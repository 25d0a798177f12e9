import Foundation
import Testing
import TestSupport

/// `healthctl export` through a real healthd: Apple's export.zip that `healthctl import` turns
/// back into the same samples in an empty store, CSV and JSON lines, filters, private output.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ExportEndToEndTests {
    static let fixtures = SharedFixtures.appleHealth
    /// Every kind the round trip must keep: the fixtures' types.
    static let comparedTypes = [
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierBodyMass",
        "HKQuantityTypeIdentifierBodyTemperature", "HKQuantityTypeIdentifierDistanceWalkingRunning",
        "HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierBloodPressureSystolic",
        "HKQuantityTypeIdentifierBloodPressureDiastolic", "HKCorrelationTypeIdentifierBloodPressure",
        "HKWorkoutTypeIdentifier", "HKWorkoutRouteTypeIdentifier", "HKVisionPrescriptionTypeIdentifier",
    ]

    func writeHostileFixture(in broker: BrokerProcess) throws -> String {
        let path = broker.root + "/hostile-export.xml"
        try Data(HostileExportFixture.xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func writeVisionFixture(in broker: BrokerProcess) throws -> String {
        let path = broker.root + "/vision-export.xml"
        try Data(VisionPrescriptionFixture.xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every sample of `types`, as `healthctl samples --json` prints them, without what a store
    /// assigns (UUIDs) and with numbers to 12 significant digits (a value exported in the
    /// preferred unit and read back may differ in the last bit), as sorted canonical JSON.
    func snapshot(_ broker: BrokerProcess, _ types: [String]) async throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for type in types {
            let listed = try await broker.healthctl(["samples", type, "--json"])
            #expect(listed.status == 0, "\(listed)")
            result[type] = try listed.lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                let data = try JSONSerialization.data(withJSONObject: Self.normalized(object), options: [.sortedKeys])
                return String(decoding: data, as: UTF8.self)
            }.sorted()
        }
        return result
    }

    static func normalized(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var copy = object
            copy.removeValue(forKey: "uuid")
            return copy.mapValues(normalized)
        case let array as [Any]:
            return array.map(normalized)
        case let number as NSNumber:  // booleans too on Linux; both snapshots are normalized alike
            return String(format: "%.12g", number.doubleValue)
        default:
            return value
        }
    }

    @Test func anAppleExportImportedIntoAnEmptyStoreGivesBackTheSameSamples() async throws {
        let original = try BrokerProcess()
        for export in [try writeHostileFixture(in: original), try writeVisionFixture(in: original),
                       Self.fixtures.appendingPathComponent("paulstaab-health-data-parser/tests/fixtures/export.zip").path,
                       Self.fixtures.appendingPathComponent("tdda-applehealthdata/testdata/export6s3sample.xml").path] {
            let imported = try await original.healthctl(["import", export, "--characteristics", "yes"])
            #expect(imported.status == 0, "\(imported)\n\(original.log)")
        }
        let before = try await snapshot(original, Self.comparedTypes)
        #expect(before["HKCorrelationTypeIdentifierBloodPressure"]?.count == 1, "\(before)")
        #expect(before["HKWorkoutRouteTypeIdentifier"]?.count == 5, "4 GPX routes and 1 inline: \(before)")
        #expect(before["HKVisionPrescriptionTypeIdentifier"]?.count == 4, "glasses, contacts, plain, Apple's: \(before)")

        let zip = original.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)\n\(original.log)")
        #expect(exported.stdout.contains("and 5 routes to"), "\(exported.stdout)")
        // As in Apple's exports, a correlation's samples are also top-level records (the import stores them once).
        #expect(exported.stdout.contains("Blood Pressure Systolic: 1"), "\(exported.stdout)")
        let attributes = try FileManager.default.attributesOfItem(atPath: zip)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Nothing staged is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: original.root + "/out") == ["export.zip"])

        let copy = try BrokerProcess()
        let reimported = try await copy.healthctl(["import", zip, "--characteristics", "yes"])
        #expect(reimported.status == 0, "\(reimported)\n\(copy.log)")
        #expect(reimported.stdout.contains(", 0 refused."), "\(reimported.stdout)")
        let after = try await snapshot(copy, Self.comparedTypes)
        for type in Self.comparedTypes {
            #expect(after[type] == before[type], "\(type) changed:\nbefore \(before[type] ?? [])\nafter  \(after[type] ?? [])")
        }
        let characteristics = try await copy.healthctl(["characteristics", "show"])
        #expect(characteristics.stdout == (try await original.healthctl(["characteristics", "show"])).stdout)
        #expect(characteristics.stdout.contains("1965-07-31"), "the last import's date of birth: \(characteristics.stdout)")

        // The same export imported again into the store it came from adds nothing.
        let again = try await original.healthctl(["import", zip])
        #expect(again.stdout.contains(": 0 imported,"), "\(again.stdout)")
    }

    /// CSV: one file per type, only the types and dates asked for, quantities in the Health app's
    /// unit, hostile text quoted and defused; JSON lines likewise; output private; an existing
    /// folder refused; the export's time recorded for `healthctl status`.
    @Test func csvAndJSONLinesHoldTheChosenTypesAndDates() async throws {
        let broker = try BrokerProcess()
        let imported = try await broker.healthctl(["import", try writeHostileFixture(in: broker), "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)")
        let folder = broker.root + "/csv"
        let csv = try await broker.healthctl(["export", folder, "--format", "csv", "--types", "heartRate,stepCount,bodyMass",
                                              "--from", "2024-05-01T06:04:00Z", "--to", "2024-05-01T08:00:00Z"])
        #expect(csv.status == 0, "\(csv)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        // Body mass (05:00Z) is before --from; one of the two heart rates (06:00Z) too.
        #expect(files == ["HeartRate.csv", "StepCount.csv"], "\(files)")
        #expect((try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int) == 0o700)
        #expect((try FileManager.default.attributesOfItem(atPath: folder + "/HeartRate.csv")[.posixPermissions] as? Int) == 0o600)
        let heart = try String(contentsOfFile: folder + "/HeartRate.csv", encoding: .utf8).split(separator: "\n")
        #expect(heart.count == 2, "header and one row: \(heart)")
        #expect(heart.first == "uuid,type,start,end,value,unit,source,source_version,device,detail,metadata")
        // 141.5 bpm in count/min (the store keeps count/s); the source's quotes doubled inside a quoted field.
        #expect(heart.last?.contains(",141.5,count/min,\"Watch \"\"<script>") == true, "\(heart)")

        let json = try await broker.healthctl(["export", broker.root + "/all.jsonl", "--format", "json", "--types", "heartRate"])
        #expect(json.status == 0, "\(json)")
        let lines = try String(contentsOfFile: broker.root + "/all.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains(#""unit":"count/min""#) }, "\(lines)")

        let again = try await broker.healthctl(["export", folder, "--format", "csv"])
        #expect(again.status == 73 && again.stderr.contains("exists already"), "\(again)")

        let state = try Data(contentsOf: URL(fileURLWithPath: broker.root + "/state/openhealth/last-export.json"))
        let record = try JSONSerialization.jsonObject(with: state) as? [String: Any]
        #expect(record?["format"] as? String == "json" && record?["samples"] as? Int == 2, "\(String(decoding: state, as: UTF8.self))")
    }

    /// A formula in a source name reaches a spreadsheet as text.
    @Test func csvCellsThatWouldRunAsFormulasAreDefused() async throws {
        let broker = try BrokerProcess()
        let path = broker.root + "/formula.xml"
        let xml = HostileExportFixture.xml.replacingOccurrences(of: "sourceName=\"iPhone\"", with: "sourceName=\"=HYPERLINK(&quot;http://x&quot;)\"")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await broker.healthctl(["import", path, "--characteristics", "no"]).status == 0)
        let folder = broker.root + "/csv"
        #expect(try await broker.healthctl(["export", folder, "--format", "csv", "--types", "stepCount"]).status == 0)
        let rows = try String(contentsOfFile: folder + "/StepCount.csv", encoding: .utf8)
        #expect(rows.contains(#","'=HYPERLINK(""http://x"")","#), "\(rows)")
    }

    /// --source keeps one source's samples; the CSV folder holds each route as GPX, named in its
    /// workout's row.
    @Test func csvExportsFilterBySourceAndCarryRoutesAsGPX() async throws {
        let broker = try BrokerProcess()
        let path = broker.root + "/hostile.xml"
        try Data(HostileExportFixture.xml.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await broker.healthctl(["import", path, "--characteristics", "no"]).status == 0)
        let iPhone = broker.root + "/iphone"
        let filtered = try await broker.healthctl(["export", iPhone, "--format", "csv", "--source", "@import/Apple Health/iPhone"])
        #expect(filtered.status == 0, "\(filtered)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: iPhone).sorted() == ["SleepAnalysis.csv", "StepCount.csv"])

        let all = broker.root + "/all"
        #expect(try await broker.healthctl(["export", all, "--format", "csv"]).status == 0)
        let routes = try FileManager.default.contentsOfDirectory(atPath: all + "/workout-routes")
        #expect(routes.count == 1 && routes[0].hasSuffix(".gpx"), "\(routes)")
        let gpx = try String(contentsOfFile: all + "/workout-routes/" + routes[0], encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trkpt").count - 1 == 3, "\(gpx)")
        let workouts = try String(contentsOfFile: all + "/Workout.csv", encoding: .utf8)
        #expect(workouts.contains("route workout-routes/" + routes[0]), "\(workouts)")
    }
}
