import Foundation
import HealthModel
import Testing
import TestSupport

/// Heartbeat series and electrocardiograms through the whole stack (issue 15, 16): a series
/// built with HKHeartbeatSeriesBuilder in one sandboxed app and read with HKHeartbeatSeriesQuery
/// by another; ECGs and HRV beat lists brought in by `healthctl import` of an Apple export and
/// read with HKElectrocardiogramQuery; each under its type's read grant.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SeriesEndToEndTests {
    static let heartbeat = HKDataTypeIdentifierHeartbeatSeries
    static let ecg = HKElectrocardiogramTypeIdentifier
    static let start = 1_700_000_000

    /// developer.apple.com/documentation/healthkit/hkheartbeatseriesbuilder and
    /// …/hkheartbeatseriesquery/init(heartbeatseries:datahandler:): the handler is called once per
    /// beat in time order with the gap flag, `done` on the last; the series ends at its last beat.
    @Test func aBuiltSeriesIsReadBackBeatByBeatByAnotherApp() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.hrv-strap")
        try await broker.set(writer, "share", Self.heartbeat, allowed: true)
        let reader = try await broker.installClient("org.test.hrv-reader")
        try await broker.set(reader, "read", Self.heartbeat, allowed: true)

        let saved = try await broker.runApp(writer, ["series", "save-heartbeats", "\(Self.start)", "0.8", "1.62", "2.5+gap", "3.31"])
        let fields = try #require(saved.okValue?.split(separator: " ").map(String.init), "\(saved)")
        #expect(fields.count == 3 && fields[1] == "4" && fields[2] == "\(Double(Self.start) + 3.31)", "\(saved)")
        let expected = ["series \(fields[0]) 4 \(writer)", "beat 0.8 false false", "beat 1.62 false false",
                        "beat 2.5 true false", "beat 3.31 false true", "ok 1"]
        let read = try await broker.runApp(reader, ["series", "query-heartbeats"])
        #expect(read.lines == expected, "\(read)")
        // HKHeartbeatSeriesQueryDescriptor: the same beats, without the done flag.
        let asyncRead = try await broker.runApp(reader, ["series", "query-heartbeats", "--async"])
        #expect(asyncRead.lines == expected.map { $0.hasPrefix("beat ") ? String($0.split(separator: " ").prefix(3).joined(separator: " ")) : $0 },
                "\(asyncRead)")
    }

    /// Saving needs share permission for HKSeriesType.heartbeat() (DESIGN.md §7.5); a read
    /// without read permission sees only the app's own series — none here, as if the other
    /// app's did not exist.
    @Test func permissionsGovernSavingAndReadingSeries() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.hrv-writer")
        let refused = try await broker.runApp(writer, ["series", "save-heartbeats", "\(Self.start)", "1"])
        #expect(refused.errorCode == HKError.Code.errorAuthorizationNotDetermined.rawValue, "\(refused)")
        try await broker.set(writer, "share", Self.heartbeat, allowed: true)
        #expect(try await broker.runApp(writer, ["series", "save-heartbeats", "\(Self.start)", "1"]).okValue != nil)
        let stranger = try await broker.installClient("org.test.hrv-stranger")
        let unseen = try await broker.runApp(stranger, ["series", "query-heartbeats"])
        #expect(unseen.lines == ["ok 0"], "\(unseen)")
        try await broker.set(stranger, "read", Self.heartbeat, allowed: false)
        #expect(try await broker.runApp(stranger, ["series", "query-heartbeats"]).lines == ["ok 0"])
        // Its own series it reads without read permission.
        try await broker.set(stranger, "share", Self.heartbeat, allowed: true)
        _ = try await broker.runApp(stranger, ["series", "save-heartbeats", "\(Self.start)", "2"])
        let own = try await broker.runApp(stranger, ["series", "query-heartbeats"])
        #expect(own.lines.count == 3 && own.lines.last == "ok 1" && own.lines[1] == "beat 2.0 false true", "\(own)")
    }

    /// addHeartbeatWithTimeInterval: "This must be a positive value"; beats go in time order.
    @Test func aBeatBeforeThePreviousOneIsRefusedAndNothingIsSaved() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.hrv-bad")
        try await broker.set(app, "share", Self.heartbeat, allowed: true)
        try await broker.set(app, "read", Self.heartbeat, allowed: true)
        for beats in [["1", "0.5"], ["-1"]] {
            let result = try await broker.runApp(app, ["series", "save-heartbeats", "\(Self.start)"] + beats)
            #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(result)")
        }
        #expect(try await broker.runApp(app, ["series", "query-heartbeats"]).lines == ["ok 0"])
    }

    /// An Apple export folder with one ECG CSV (as the Health app writes it under
    /// `electrocardiograms/`) and an HRV record with its `InstantaneousBeatsPerMinute` list.
    static func writeExport(in broker: BrokerProcess, secondECG: Bool = false) throws -> String {
        let folder = broker.root + "/apple_health_export"
        try FileManager.default.createDirectory(atPath: folder + "/electrocardiograms", withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2023-11-20 09:00:00 -0800"/>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" sourceVersion="10.1" unit="ms" creationDate="2023-11-14 19:52:21 -0800" startDate="2023-11-14 19:51:16 -0800" endDate="2023-11-14 19:52:21 -0800" value="53.6">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="61" time="7:51:17.56 PM"/>
               <InstantaneousBeatsPerMinute bpm="63" time="7:51:18.50 PM"/>
               <InstantaneousBeatsPerMinute bpm="60" time="7:51:19.50 PM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
            </HealthData>

            """
        try xml.write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
        try ecgCSV().write(toFile: folder + "/electrocardiograms/ecg_2023-11-14.csv", atomically: true, encoding: .utf8)
        if secondECG {
            // Recorded the same day, an hour later: the Health app names it ecg_2023-11-14_1.csv.
            try ecgCSV().replacingOccurrences(of: "20:10:00 -0800", with: "21:10:00 -0800")
                .write(toFile: folder + "/electrocardiograms/ecg_2023-11-14_1.csv", atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// 3 s at 512 Hz; the voltages (µV) sum to 1536 × 10.
    static func ecgCSV() -> String {
        let header = """
            Name,Jane Appleseed
            Date of Birth,"Jan 1, 1980"
            Recorded Date,2023-11-14 20:10:00 -0800
            Classification,Sinus Rhythm
            Symptoms,
            Software Version,2
            Device,"Watch6,2"
            Sample Rate,512 hertz

            Lead,Lead I
            Unit,µV

            """
        return header + (0..<1536).map { $0 % 2 == 0 ? "-20.5" : "40.5" }.joined(separator: "\n") + "\n"
    }

    /// developer.apple.com/documentation/healthkit/hkelectrocardiogramquery: the handler gets
    /// each voltage measurement (`quantity(for: .appleWatchSimilarToLeadI)`), then `.done`.
    /// Apps cannot save ECGs, so they come by import; an app without read permission sees none.
    @Test func anImportedECGIsReadVoltageByVoltage() async throws {
        let broker = try BrokerProcess()
        let export = try Self.writeExport(in: broker)
        let imported = try await broker.healthctl(["import", export, "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains(", 0 refused"), "\(imported)\n\(broker.log)")
        let reader = try await broker.installClient("org.test.ecg-reader")
        try await broker.set(reader, "read", Self.ecg, allowed: true)
        for variant in [[], ["--async"]] {
            let read = try await broker.runApp(reader, ["series", "query-ecgs"] + variant)
            #expect(read.lines.count == 3 && read.okValue == "1", "\(read)")
            #expect(read.lines.first?.hasSuffix(" 1536 512.0 1 0 -") == true, "\(read)")
            #expect(read.lines.dropFirst().first == "voltages 1536 0.0 \(1535.0 / 512) 15360.0", "\(read)")
        }
        let stranger = try await broker.installClient("org.test.ecg-stranger")
        #expect(try await broker.runApp(stranger, ["series", "query-ecgs"]).lines == ["ok 0"])
        // Importing the same export again adds nothing.
        let again = try await broker.healthctl(["import", export, "--characteristics", "no"])
        #expect(again.stdout.contains(": 0 imported,"), "\(again.stdout)")
    }

    /// The export writes an HRV record's beats as local times of day; they become a heartbeat
    /// series beside the HRV sample, its beats at their offsets from the record's start
    /// (19:51:16 -0800: the first beat 1.56 s in).
    @Test func anHRVBeatListIsImportedAsAHeartbeatSeries() async throws {
        let broker = try BrokerProcess()
        let imported = try await broker.healthctl(["import", try Self.writeExport(in: broker), "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains(", 0 refused"), "\(imported)\n\(broker.log)")
        let reader = try await broker.installClient("org.test.hrv-import-reader")
        try await broker.set(reader, "read", Self.heartbeat, allowed: true)
        let read = try await broker.runApp(reader, ["series", "query-heartbeats"])
        let beats = read.lines.filter { $0.hasPrefix("beat ") }.map { $0.split(separator: " ").map(String.init) }
        #expect(beats.count == 3, "\(read)")
        let times = beats.compactMap { Double($0[1]) }
        for (time, expected) in zip(times, [1.56, 2.5, 3.5]) { #expect(abs(time - expected) < 1e-6, "\(read)") }
        #expect(beats.last?[3] == "true")
    }

    /// Issue 16: `healthctl export` writes each ECG back as Apple's CSV under
    /// `electrocardiograms/` and each HRV record with its heartbeat series' beat list; importing
    /// that export into an empty store gives the same ECG (classification, rate, every voltage)
    /// and the same beats, and into the store it came from adds nothing.
    @Test func anECGSurvivesExportAndImportUnchanged() async throws {
        let original = try BrokerProcess()
        let imported = try await original.healthctl(["import", try Self.writeExport(in: original, secondECG: true), "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)")
        let zip = original.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0 && exported.stdout.contains("Electrocardiograms: 2"), "\(exported)\n\(original.log)")

        let copy = try BrokerProcess()
        let reimported = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(reimported.status == 0 && reimported.stdout.contains(", 0 refused"), "\(reimported)")
        var seen: [[String]] = []
        for broker in [original, copy] {
            let reader = try await broker.installClient("org.test.ecg-roundtrip")
            try await broker.set(reader, "read", Self.ecg, allowed: true)
            try await broker.set(reader, "read", Self.heartbeat, allowed: true)
            let read = try await broker.runApp(reader, ["series", "query-ecgs"])
            #expect(read.okValue == "2", "\(read)")
            let beats = try await broker.runApp(reader, ["series", "query-heartbeats"])
            #expect(beats.okValue == "1", "\(beats)")
            // The UUIDs differ between stores; everything after them must not.
            seen.append((read.lines + beats.lines).map { line in
                line.hasPrefix("ecg ") || line.hasPrefix("series ") ? String(line.split(separator: " ").dropFirst(2).joined(separator: " ")) : line
            })
        }
        #expect(seen[0] == seen[1])
        let again = try await original.healthctl(["import", zip, "--characteristics", "no"])
        #expect(again.status == 0, "\(again)")
        let reader = try await original.installClient("org.test.ecg-roundtrip-again")
        try await original.set(reader, "read", Self.ecg, allowed: true)
        #expect(try await original.runApp(reader, ["series", "query-ecgs"]).okValue == "2")
        try await original.set(reader, "read", Self.heartbeat, allowed: true)
        #expect(try await original.runApp(reader, ["series", "query-heartbeats"]).okValue == "1")
    }

    /// DESIGN.md §7.8: while the store is locked a finished series is accepted into the pending
    /// journal (beats included) and merged at unlock; reading beats fails with
    /// errorDatabaseInaccessible until then.
    @Test func aSeriesFinishedWhileLockedIsMergedWithItsBeatsAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.hrv-locked")
        try await broker.set(app, "share", Self.heartbeat, allowed: true)
        try await broker.set(app, "read", Self.heartbeat, allowed: true)
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let saved = try await broker.runApp(app, ["series", "save-heartbeats", "\(Self.start)", "0.5", "1.25+gap"])
        #expect(saved.okValue?.hasSuffix(" 2 \(Double(Self.start) + 1.25)") == true, "\(saved)")
        let locked = try await broker.runApp(app, ["series", "query-heartbeats"])
        #expect(locked.errorCode == HKError.Code.errorDatabaseInaccessible.rawValue, "\(locked)")
        #expect(try await broker.healthctl(["unlock"]).status == 0)
        let read = try await broker.runApp(app, ["series", "query-heartbeats"])
        #expect(Array(read.lines.dropFirst()) == ["beat 0.5 false false", "beat 1.25 true true", "ok 1"], "\(read)")
    }
}
