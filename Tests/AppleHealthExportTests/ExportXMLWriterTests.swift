@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// What `ExportXMLWriter` and `GPXRouteWriter` write is what the reader and the importer's
/// conversion read back: the same values, metadata of every kind, devices, names and points.
@Suite(.timeLimit(.minutes(10))) struct ExportXMLWriterTests {
    let start = Date(timeIntervalSince1970: 1_714_543_200)  // 2024-05-01 06:00:00Z
    let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    func writer() -> ExportXMLWriter {
        ExportXMLWriter(timeZone: berlin, unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })
    }

    /// Writes one element as a whole export.xml and reads back its items.
    func readBack(_ element: String) throws -> [ExportItem] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = writer().prologue(exportDate: start, locale: "en_US", characteristics: []) + element + ExportXMLWriter.epilogue
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        var items: [ExportItem] = []
        try AppleHealthExportFile(url: folder).read { items.append($0) }
        return items
    }

    func canonical(_ value: SampleRecord.Value, _ type: String) throws -> Double {
        guard case let .quantity(amount, unit) = value, let quantityType = HKObjectType.type(forIdentifier: type) as? HKQuantityType else {
            Issue.record("not a quantity: \(value)")
            return .nan
        }
        return try HKQuantity(unit: HKUnit.parse(unit), doubleValue: amount).value(in: quantityType.canonicalUnit)
    }

    @Test func aCorrelationsSamplesMetadataOfEveryKindAndDevicesReadBackTheSame() throws {
        let device = DeviceRecord(name: "Cuff, \"Pro\" <2>", manufacturer: "Omron & Co", model: "M7", hardwareVersion: "2,1")
        let metadata: [String: MetadataValue] = [
            "HKWasUserEntered": .bool(true), "custom\nkey": .string("a <b> & \"c\"\tand\r\nlines"),
            // A correlation's import identity (it may carry no sync identifier) is read back, not made anew.
            SampleRecord.importIdentityKey: .string("apple-health-import:bp-1"), HKMetadataKeyTimeZone: .string("Europe/Berlin"),
        ]
        let systolic = SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierBloodPressureSystolic", startDate: start,
                                    endDate: start, value: .quantity(16.1, unit: "kPa"), device: device)
        let diastolic = SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierBloodPressureDiastolic", startDate: start,
                                     endDate: start, value: .quantity(79, unit: "mmHg"))
        let correlation = SampleRecord(uuid: UUID(), typeIdentifier: "HKCorrelationTypeIdentifierBloodPressure", startDate: start,
                                       endDate: start, value: .correlation([systolic, diastolic]), metadata: metadata, device: device)
        let element = try #require(writer().element(correlation, sourceName: "Cuff \"app\" <&>", sourceVersion: "1.0"))
        let items = try readBack(element)
        guard case let .correlation(read)? = items.last else { Issue.record("no correlation in \(items)"); return }
        #expect(read.header.source.name == "Cuff \"app\" <&>")
        #expect(read.header.source.version == "1.0")
        let converted = try ExportConversion.sample(read).record
        #expect(converted.metadata == metadata)
        #expect(converted.device == device)
        #expect(converted.startDate == start)
        guard case let .correlation(members) = converted.value else { Issue.record("\(converted.value)"); return }
        #expect(members.map(\.typeIdentifier) == [systolic.typeIdentifier, diastolic.typeIdentifier])
        #expect(members.first?.device == device)
        #expect(abs(try canonical(members[0].value, systolic.typeIdentifier) - (try canonical(systolic.value, systolic.typeIdentifier))) < 1e-9)
        #expect(try canonical(members[1].value, diastolic.typeIdentifier) == (try canonical(diastolic.value, diastolic.typeIdentifier)))
    }

    @Test func categoriesWorkoutsAndDateAndQuantityMetadataReadBackTheSame() throws {
        let sleep = SampleRecord(uuid: UUID(), typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", startDate: start,
                                 endDate: start.addingTimeInterval(3600), value: .category(1))
        let sleepItems = try readBack(try #require(writer().element(sleep, sourceName: "Phone", sourceVersion: nil)))
        guard case let .record(record)? = sleepItems.last else { Issue.record("\(sleepItems)"); return }
        // Raw value 1 has a deprecated alias (…Asleep); the current name is written.
        #expect(record.value == "HKCategoryValueSleepAnalysisAsleepUnspecified")
        #expect(try ExportConversion.sample(record).record.value == .category(1))

        let events = [WorkoutEventRecord(type: 3, startDate: start, endDate: start.addingTimeInterval(315)),
                      WorkoutEventRecord(type: 1, startDate: start.addingTimeInterval(600), endDate: start.addingTimeInterval(600))]
        let workout = SampleRecord(
            uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(1800),
            value: .workout(WorkoutValue(activityType: 37, duration: 1770, totalEnergyBurned: RecordedQuantity(350, unit: "kcal"),
                                         totalDistance: RecordedQuantity(5.2, unit: "km"), events: events)),
            metadata: ["HKIndoorWorkout": .bool(false), "HKWeatherTemperature": .quantity(value: 56, unit: "degF"),
                       "HKTimeZone": .string("Europe/Berlin")])
        let route = ExportRouteFile(path: "/workout-routes/route.gpx", startDate: start, endDate: start.addingTimeInterval(60))
        let workoutItems = try readBack(try #require(writer().element(workout, sourceName: "Watch", sourceVersion: "10", routes: [route])))
        guard case let .workout(read)? = workoutItems.last else { Issue.record("\(workoutItems)"); return }
        #expect(read.activityType == "HKWorkoutActivityTypeRunning")
        #expect(read.routes.map(\.filePath) == ["/workout-routes/route.gpx"])
        let converted = try ExportConversion.sample(read).record
        guard case let .workout(value) = converted.value else { Issue.record("\(converted.value)"); return }
        #expect(abs(value.duration - 1770) < 1e-9)
        #expect(value.events == events)
        #expect(value.totalDistance == RecordedQuantity(5.2, unit: "km"))
        #expect(converted.metadata.filter { !$0.key.hasPrefix("HKMetadataKeySync") } == workout.metadata)
    }

    @Test func dateMetadataAndDatesAreWrittenInTheZoneAndReadBackToTheSecond() throws {
        #expect(ExportDate.format(start, in: berlin) == "2024-05-01 08:00:00 +0200")
        #expect(ExportDate.format(start, in: TimeZone(identifier: "America/St_Johns") ?? .gmt) == "2024-05-01 03:30:00 -0230")
        #expect(ExportDate.parse(ExportDate.format(start, in: TimeZone(identifier: "America/St_Johns") ?? .gmt)) == start)
    }

    @Test func aGPXRouteReadsBackToTheSameLocationsUnknownFieldsIncluded() throws {
        let locations = [
            RouteLocation(timestamp: start, latitude: 52.516_3, longitude: 13.377_7, altitude: 34.5, horizontalAccuracy: 4.2,
                          verticalAccuracy: 3, course: 90.5, speed: 2.75),
            RouteLocation(timestamp: start.addingTimeInterval(5.25), latitude: -33.9, longitude: -179.999_999, altitude: 0,
                          horizontalAccuracy: 0, verticalAccuracy: -1, course: -1, speed: -1),
        ]
        let text = GPXRouteWriter.gpx(locations, name: "Run <&> \"1\"")
        let read = try GPXRouteReader.read(Data(text.utf8), fileName: "route.gpx")
        #expect(read.count == 2)
        #expect(read.map(\.date) == locations.map(\.timestamp))
        #expect(read.map(\.latitude) == locations.map(\.latitude))
        #expect(read.map(\.longitude) == locations.map(\.longitude))
        #expect(read.map(\.verticalAccuracy) == [3, -1])
        #expect(read.map(\.course) == [90.5, -1])
    }

    @Test func textThatIsNoXMLIsReplacedNotWritten() {
        #expect(ExportXMLText.escaped("a\u{1}b\u{FFFE}") == "a\u{FFFD}b\u{FFFD}")
        #expect(ExportXMLText.escaped("<'&'>") == "&lt;&apos;&amp;&apos;&gt;")
        #expect(ExportXMLText.number(12) == "12")
        #expect(ExportXMLText.number(0.1) == "0.1")
    }
}
