import AppleHealthExport
import Foundation
import Testing

/// Reading real exports of several format versions, whole and in parts.
@Suite(.timeLimit(.minutes(10))) struct AppleHealthExportFileTests {
    func items(of url: URL) throws -> (items: [ExportItem], file: AppleHealthExportFile) {
        let file = try AppleHealthExportFile(url: url)
        var items: [ExportItem] = []
        try file.read { items.append($0) }
        return (items, file)
    }

    func records(_ items: [ExportItem]) -> [ExportRecord] {
        items.compactMap { if case let .record(record) = $0 { record } else { nil } }
    }

    func workouts(_ items: [ExportItem]) -> [ExportWorkout] {
        items.compactMap { if case let .workout(workout) = $0 { workout } else { nil } }
    }

    /// tdda's 2016 excerpt (DTD v3): the counts its CSV files list, record by record.
    @Test func aVersion3ExportYieldsEveryRecordWithItsSourceAndDates() throws {
        let (items, _) = try items(of: Fixtures.url("tdda-applehealthdata/testdata/export6s3sample.xml"))
        let records = records(items)
        #expect(records.count == 15)
        let stepRows = try String(contentsOf: Fixtures.url("tdda-applehealthdata/testdata/StepCount.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        #expect(records.filter { $0.header.type == "HKQuantityTypeIdentifierStepCount" }.count == stepRows.count)
        #expect(workouts(items).count == 1)
        #expect(items.contains { if case .me = $0 { true } else { false } })
        #expect(items.filter { if case .activitySummary = $0 { true } else { false } }.count == 2)
        #expect(records.allSatisfy { $0.header.source.name?.isEmpty == false && $0.header.startDate <= $0.header.endDate })
    }

    /// dogsheep's export: metadata, a device string with escaped brackets, inline route points.
    @Test func metadataDevicesAndInlineRouteLocationsAreKept() throws {
        let (items, _) = try items(of: Fixtures.url("dogsheep-healthkit-to-sqlite/tests/export.xml"))
        let body = try #require(records(items).first { $0.header.type == "HKQuantityTypeIdentifierBodyMassIndex" })
        #expect(body.header.metadata.map(\.key) == ["Health Mate App Version", "Withings User Identifier", "Modified Date",
                                                     "Withings Link", "HKWasUserEntered"])
        #expect(body.header.metadata[3].value == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")
        #expect(body.value == "22.5312" && body.unit == "count")
        let heart = try #require(records(items).first { $0.header.type == "HKQuantityTypeIdentifierHeartRate" })
        #expect(heart.header.source.device?.hasPrefix("<<HKDevice: 0x282a45810>, name:Apple Watch") == true)
        let workout = try #require(workouts(items).first)
        #expect(workout.activityType == "HKWorkoutActivityTypeRunning")
        #expect(workout.totalDistance == ExportMeasure(value: "0.4971749504535062", unit: "mi"))
        #expect(workout.header.metadata.first == ExportMetadataEntry(key: "HKTimeZone", value: "America/Los_Angeles"))
        #expect(workout.routes.count == 1 && workout.routes[0].locations.count == 2)
        #expect(workout.routes[0].locations[0].latitude == 37.7777)
        #expect(workout.routes[0].source.name == "Simon’s iPhone")
        #expect(workout.routes[0].locations[0].date == ExportDate.parse("2016-11-14 07:25:44 -0700"))
    }

    /// paulstaab's export.zip: routes as GPX files inside the archive, read from it directly.
    @Test func routesReferencedAsGPXFilesAreReadFromTheZip() throws {
        let (items, file) = try items(of: Fixtures.url("paulstaab-health-data-parser/tests/fixtures/export.zip"))
        let withRoutes = workouts(items).filter { !$0.routes.isEmpty }
        #expect(workouts(items).count == 8)
        #expect(withRoutes.count == 4)
        let december = try #require(withRoutes.first { $0.header.startDate == ExportDate.parse("2023-12-28 06:30:00 +0000") })
        #expect(december.header.source.name == "Synthetic & Run Club")
        #expect(december.statistics.map(\.type) == ["HKQuantityTypeIdentifierDistanceWalkingRunning",
                                                    "HKQuantityTypeIdentifierActiveEnergyBurned"])
        let path = try #require(december.routes[0].filePath)
        let locations = try file.routeLocations(at: path)
        #expect(locations.count == 4)
        #expect(locations.first?.latitude == 52.0 && locations.last?.latitude == 52.0225)
        #expect(locations.last?.date == ExportDate.parse("2023-12-28 06:42:30 +0000"))
        #expect(locations.allSatisfy { $0.altitude == nil })  // this file has no elevation
    }

    /// The unpacked folder layout reads the same as the zip.
    @Test func theUnpackedFolderReadsLikeTheZip() throws {
        let folder = Fixtures.url("dogsheep-healthkit-to-sqlite/tests/zip_contents")
        let (items, file) = try items(of: folder)
        let route = try #require(workouts(items).first?.routes.first?.filePath)
        let locations = try file.routeLocations(at: route)
        #expect(locations.count == 3)
        #expect(locations[0].speed == 0.180883 && locations[0].horizontalAccuracy == 8.063116 && locations[0].altitude == 4.076904)
        #expect(throws: ExportReadError.self) { _ = try file.routeLocations(at: "/workout-routes/../../secret.gpx") }
    }

    /// Real exports' quirks: an unclosed DTD declaration (iOS 16) and control characters in
    /// attribute values. The DTD is dropped with its lines kept, so errors still name the
    /// original line.
    @Test func quirksOfRealExportsAreReadAndErrorsNameTheOriginalLine() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ATTLIST Record
          type CDATA #REQUIRED
        <!ELEMENT ExportDate EMPTY>
        ]>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone\u{0B}of Ann" unit="count" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000" value="12"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="yesterday" endDate="2024-01-01 10:05:00 +0000" value="12"/>
        </HealthData>
        """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let file = try AppleHealthExportFile(url: folder)
        var read: [ExportRecord] = []
        #expect {
            try file.read { if case let .record(record) = $0 { read.append(record) } }
        } throws: { error in
            guard case let .invalidElement(_, element, line, reason)? = error as? ExportReadError else { return false }
            return element == "Record" && line == 9 && reason.contains("startDate")
        }
        #expect(read.map(\.header.source.name) == ["Phone of Ann"])
    }

    @Test func brokenXMLIsReportedWithLineAndColumn() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<HealthData>\n<ExportDate value=\"2024-01-01 10:00:00 +0000\">\n</HealthData>".utf8).write(to: folder.appendingPathComponent("export.xml"))
        let file = try AppleHealthExportFile(url: folder)
        #expect {
            try file.read { _ in }
        } throws: { error in
            guard case let .malformed(_, line, _, _)? = error as? ExportReadError else { return false }
            return line == 3
        }
    }

    @Test func whatIsNoExportSaysWhy() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ExportReadError.self) { _ = try AppleHealthExportFile(url: folder) }  // no export.xml
        let notXML = folder.appendingPathComponent("export.xml")
        try Data("hello".utf8).write(to: notXML)
        #expect { _ = try AppleHealthExportFile(url: notXML) } throws: { error in
            "\(error)".contains("no <HealthData> element")
        }
        let notZip = folder.appendingPathComponent("export.zip")
        try Data("hello".utf8).write(to: notZip)
        #expect { _ = try AppleHealthExportFile(url: notZip) } throws: { error in
            "\(error)".contains("not a readable zip archive")
        }
    }

    /// Elements the importer does not handle are counted, not dropped unseen.
    @Test func unknownElementsAreCounted() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        <HealthData locale="en_US"><ClinicalRecord type="x" identifier="y" sourceName="z" fhirVersion="4" receivedDate="2024-01-01 10:00:00 +0000" resourceFilePath="/clinical-records/a.json"/>
        <Foo/></HealthData>
        """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let (items, file) = try items(of: folder)
        // Clinical records (ClinicalRecordImportTests) and audiograms are read; Foo is not HealthKit's.
        #expect(items.count == 1)
        #expect(file.skippedElements == ["Foo": 1])
    }

    /// An `Audiogram` (healthkit11.dtd: `SensitivityPoint` with frequencyValue/frequencyUnit and
    /// each ear's value and unit) is read with its points and metadata in document order.
    @Test func audiogramsAreReadWithTheirPoints() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        <HealthData locale="en_US"><Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="b" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:10:00 +0000">
        <MetadataEntry key="K" value="V"/>
        <SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL"/>
        <SensitivityPoint frequencyValue="1" frequencyUnit="kHz" leftEarValue="20" leftEarUnit="dBHL" rightEarValue="25" rightEarUnit="dBHL"/>
        </Audiogram></HealthData>
        """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let (items, file) = try items(of: folder)
        #expect(file.skippedElements.isEmpty)
        guard case let .audiogram(audiogram)? = items.first, items.count == 1 else {
            Issue.record("one audiogram item expected: \(items)")
            return
        }
        #expect(audiogram.header.metadata == [ExportMetadataEntry(key: "K", value: "V")])
        #expect(audiogram.points == [
            ExportSensitivityPoint(frequency: ExportMeasure(value: "500", unit: "Hz"), leftEar: ExportMeasure(value: "10", unit: "dBHL"), rightEar: nil),
            ExportSensitivityPoint(frequency: ExportMeasure(value: "1", unit: "kHz"), leftEar: ExportMeasure(value: "20", unit: "dBHL"),
                                   rightEar: ExportMeasure(value: "25", unit: "dBHL")),
        ])
    }
}
