public import Foundation
public import HealthModel

/// A workout's route as the export refers to it: a GPX file under `workout-routes/` (see
/// `GPXRouteWriter`) and the route object's own dates (its source is the workout's).
public struct ExportRouteFile: Sendable, Equatable {
    /// `/workout-routes/route_2024-05-01_8.30am.gpx`, as Apple writes the path.
    public var path: String
    public var startDate: Date
    public var endDate: Date

    public init(path: String, startDate: Date, endDate: Date) {
        self.path = path
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// Writes Apple Health's `export.xml` element by element (the DTD of export version 11, which
/// every reader of these files knows), so an export of any size is written as a stream.
///
/// Each element is what `ExportXMLReader` and `ExportConversion` read back into the same sample:
/// quantities in the unit `unit` picks (the user's preferred unit, as the Health app writes
/// them), category values and workout activities by their Objective-C names, metadata with its
/// kind (numbers, `1`/`0` for booleans, dates in the export's form, `value unit` quantities),
/// devices in Apple's description form. Dates are written to the second, as Apple writes them.
public struct ExportXMLWriter: Sendable {
    public let timeZone: TimeZone
    private let unit: @Sendable (HKQuantityType) -> HKUnit

    public init(timeZone: TimeZone, unit: @escaping @Sendable (HKQuantityType) -> HKUnit) {
        self.timeZone = timeZone
        self.unit = unit
    }

    public static let exportVersion = 11

    /// The XML declaration, the DTD, `<HealthData>`, `<ExportDate>` and `<Me>`.
    public func prologue(exportDate: Date, locale: String, characteristics: [CharacteristicRecord]) -> String {
        var me: [(String, String?)] = []
        // The DTD's four always (unset ones as Apple writes them), then any other that is set.
        let others = characteristics.filter { $0.value != nil && !Self.meCharacteristics.contains($0.typeIdentifier) }
        for identifier in Self.meCharacteristics + others.map(\.typeIdentifier).sorted() {
            let value = characteristics.first { $0.typeIdentifier == identifier }?.value
            switch value {
            case let .day(day)?: me.append((identifier, day.description))
            case let .enumeration(raw)?: me.append((identifier, ExportEnumNames.characteristicValue(raw, of: identifier)))
            case nil: me.append((identifier, identifier.hasSuffix("DateOfBirth") ? "" : ExportEnumNames.characteristicValue(nil, of: identifier)))
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            \(ExportDTD.text)]>
            <HealthData\(ExportXMLText.attributes([("locale", locale)]))>
             <ExportDate\(ExportXMLText.attributes([("value", date(exportDate))]))/>
             <Me\(ExportXMLText.attributes(me))/>

            """
    }

    public static let epilogue = "</HealthData>\n"

    /// The `<Record>`, `<Correlation>` or `<Workout>` for one sample, or nil for a kind the
    /// format has no element for (a route travels inside its workout).
    public func element(_ sample: SampleRecord, sourceName: String, sourceVersion: String?,
                        routes: [ExportRouteFile] = []) -> String? {
        let origin = Origin(name: sourceName, version: sourceVersion)
        let source = origin.attributes(device: sample.device)
        let dates: [(String, String?)] = [("startDate", date(sample.startDate)), ("endDate", date(sample.endDate))]
        switch sample.value {
        case .quantity, .category:
            return record(sample, origin: origin, indent: " ")
        case let .correlation(members):
            var text = " <Correlation" + ExportXMLText.attributes([("type", sample.typeIdentifier)] + source + dates) + ">\n"
            text += metadataEntries(sample.metadata, indent: "  ")
            for member in members {
                // Members carry their correlation's source (the store saves them together).
                text += record(member, origin: origin, indent: "  ")
            }
            return text + " </Correlation>\n"
        case let .workout(workout):
            return self.workout(sample, workout, source: source, dates: dates, routes: routes)
        case .workoutRoute, .heartbeatSeries, .electrocardiogram:
            // Routes are GPX files, ECGs CSV files; a heartbeat series is written as its HRV
            // record's beat list (`SeriesExport`), not as an element of its own.
            return nil
        case let .stateOfMind(value):
            // Apple's DTDs have no element for State of Mind: OpenHealthKit's own, which Apple's
            // readers skip as an unknown element (ExportStateOfMind).
            return stateOfMind(sample, value, source: source, dates: dates)
        case let .scoredAssessment(value):
            // Nor for GAD-7/PHQ-9: OpenHealthKit's own (ExportScoredAssessment).
            return scoredAssessment(sample, value, source: source, dates: dates)
        case let .audiogram(audiogram):
            var text = " <Audiogram" + ExportXMLText.attributes([("type", sample.typeIdentifier)] + source + dates) + ">\n"
            text += metadataEntries(sample.metadata, indent: "  ")
            return text + audiogram.points.map(Self.sensitivityPoint).joined() + " </Audiogram>\n"
        case .document:
            // Its element names the document's file, which the archive writes first (`document(_:…path:)`).
            return nil
        case .clinicalRecord:
            // Its element names a resource file, which the archive writes first (`clinicalRecord(_:)`).
            return nil
        case let .visionPrescription(prescription):
            return visionPrescription(sample, prescription, source: source)
        case .medicationDoseEvent, .userAnnotatedMedication:
            // Apple's export (healthkit11.dtd) has no element for medications: not exported.
            return nil
        }
    }

    /// The `<ClinicalRecord>` element (healthkit11.dtd) for a record whose resource was written
    /// to `element.resourceFilePath`.
    public func clinicalRecord(_ element: ExportClinicalRecord) -> String {
        " <ClinicalRecord" + ExportXMLText.attributes([
            ("type", element.type), ("identifier", element.identifier), ("sourceName", element.sourceName ?? ""),
            ("sourceURL", element.sourceURL ?? ""), ("fhirVersion", element.fhirVersion),
            ("receivedDate", date(element.receivedDate)), ("resourceFilePath", element.resourceFilePath),
        ]) + "/>\n"
    }

    /// Who wrote a sample, as the export's `sourceName`, `sourceVersion` and `device` attributes.
    struct Origin {
        var name: String
        var version: String?

        func attributes(device: DeviceRecord?) -> [(String, String?)] {
            [("sourceName", name), ("sourceVersion", version), ("device", device.map(ExportDevice.describe))]
        }
    }

    private func record(_ sample: SampleRecord, origin: Origin, indent: String, beatList: String = "") -> String {
        let (value, unitText) = recordValue(sample)
        let head = indent + "<Record" + ExportXMLText.attributes(
            [("type", sample.typeIdentifier)] + origin.attributes(device: sample.device) + [("unit", unitText),
             ("startDate", date(sample.startDate)), ("endDate", date(sample.endDate)), ("value", value)])
        guard !sample.metadata.isEmpty || !beatList.isEmpty else { return head + "/>\n" }
        return head + ">\n" + metadataEntries(sample.metadata, indent: indent + " ") + beatList + indent + "</Record>\n"
    }

    private func recordValue(_ sample: SampleRecord) -> (value: String, unit: String?) {
        switch sample.value {
        case let .quantity(amount, stored):
            guard let type = HKObjectType.type(forIdentifier: sample.typeIdentifier) as? HKQuantityType else {
                return (ExportXMLText.number(amount), stored)
            }
            let target = unit(type)
            // A unit the type cannot convert to (never for one the broker accepted) keeps the stored one.
            guard let converted = try? HKQuantity(unit: HKUnit.parse(stored), doubleValue: amount).value(in: target) else {
                return (ExportXMLText.number(amount), stored)
            }
            return (ExportXMLText.number(converted), target.unitString)
        case let .category(raw):
            return (ExportEnumNames.categoryValue(raw, of: sample.typeIdentifier), nil)
        case .workout, .workoutRoute, .correlation, .heartbeatSeries, .electrocardiogram, .stateOfMind, .scoredAssessment, .audiogram, .document,
             .clinicalRecord, .visionPrescription, .medicationDoseEvent, .userAnnotatedMedication:
            return ("", nil)
        }
    }

    private func workout(_ sample: SampleRecord, _ workout: WorkoutValue, source: [(String, String?)],
                         dates: [(String, String?)], routes: [ExportRouteFile]) -> String {
        var attributes: [(String, String?)] = [
            ("workoutActivityType", ExportEnumNames.workoutActivityType(workout.activityType) ?? "\(workout.activityType)"),
            ("duration", ExportXMLText.number(workout.duration / 60)), ("durationUnit", "min"),
        ]
        if let distance = workout.totalDistance {
            attributes += [("totalDistance", ExportXMLText.number(distance.value)), ("totalDistanceUnit", distance.unit)]
        }
        if let energy = workout.totalEnergyBurned {
            attributes += [("totalEnergyBurned", ExportXMLText.number(energy.value)), ("totalEnergyBurnedUnit", energy.unit)]
        }
        var text = " <Workout" + ExportXMLText.attributes(attributes + source + dates) + ">\n"
        text += metadataEntries(sample.metadata, indent: "  ")
        for event in workout.events {
            let seconds = event.endDate.timeIntervalSince(event.startDate)
            text += "  <WorkoutEvent" + ExportXMLText.attributes([
                ("type", ExportEnumNames.workoutEventType(event.type) ?? "\(event.type)"), ("date", date(event.startDate)),
                ("duration", seconds > 0 ? ExportXMLText.number(seconds / 60) : nil), ("durationUnit", seconds > 0 ? "min" : nil),
            ]) + "/>\n"
        }
        text += statisticsElements(workout.statistics, indent: "  ")
        for activity in workout.activities {
            text += activityElement(activity)
        }
        for route in routes {
            text += "  <WorkoutRoute" + ExportXMLText.attributes(source + [("startDate", date(route.startDate)), ("endDate", date(route.endDate))]) + ">\n"
            text += "   <FileReference" + ExportXMLText.attributes([("path", route.path)]) + "/>\n"
            text += "  </WorkoutRoute>\n"
        }
        return text + " </Workout>\n"
    }

    /// Newer exports' per-type statistics (Apple writes them for the collected types of a workout
    /// and of each activity); the values are in the type's canonical unit, named in `unit`.
    private func statisticsElements(_ statistics: [WorkoutStatisticsRecord], indent: String) -> String {
        statistics.map { statistic in
            let unit = (HKObjectType.type(forIdentifier: statistic.quantityType) as? HKQuantityType)?.canonicalUnit.unitString
            let number = { (quantity: RecordedQuantity?) in quantity.map { ExportXMLText.number($0.value) } }
            return indent + "<WorkoutStatistics" + ExportXMLText.attributes([
                ("type", statistic.quantityType), ("startDate", date(statistic.startDate)), ("endDate", date(statistic.endDate)),
                ("average", number(statistic.average)), ("minimum", number(statistic.minimum)),
                ("maximum", number(statistic.maximum)), ("sum", number(statistic.sum)), ("unit", unit),
            ]) + "/>\n"
        }.joined()
    }

    /// iOS 16's `<WorkoutActivity>`. Its events are the workout's (written there once). The
    /// activity's configuration has no attribute in Apple's element: location, swimming location
    /// and lap length travel as the metadata entries the import reads them back from
    /// (`ExportConversion.workoutActivities`), added here when the activity's metadata lacks them.
    private func activityElement(_ activity: WorkoutActivityRecord) -> String {
        var metadata = activity.metadata
        if metadata[HKMetadataKeyIndoorWorkout] == nil, activity.locationType != HKWorkoutSessionLocationType.unknown.rawValue {
            metadata[HKMetadataKeyIndoorWorkout] = .bool(activity.locationType == HKWorkoutSessionLocationType.indoor.rawValue)
        }
        if metadata[HKMetadataKeySwimmingLocationType] == nil,
           activity.swimmingLocationType != HKWorkoutSwimmingLocationType.unknown.rawValue {
            metadata[HKMetadataKeySwimmingLocationType] = .number(Double(activity.swimmingLocationType))
        }
        if metadata[HKMetadataKeyLapLength] == nil, let lap = activity.lapLength {
            metadata[HKMetadataKeyLapLength] = .quantity(value: lap.value, unit: lap.unit)
        }
        let minutes = activity.endDate.timeIntervalSince(activity.startDate) / 60
        var text = "  <WorkoutActivity" + ExportXMLText.attributes([
            ("uuid", activity.uuid.uuidString), ("startDate", date(activity.startDate)), ("endDate", date(activity.endDate)),
            ("duration", ExportXMLText.number(minutes)), ("durationUnit", "min"),
        ]) + ">\n"
        text += metadataEntries(metadata, indent: "   ")
        text += statisticsElements(activity.statistics, indent: "   ")
        return text + "  </WorkoutActivity>\n"
    }

    /// Sorted by key, so the same sample always exports to the same bytes.
    func metadataEntries(_ metadata: [String: MetadataValue], indent: String) -> String {
        metadata.sorted { $0.key < $1.key }.map { key, value in
            indent + "<MetadataEntry" + ExportXMLText.attributes([("key", key), ("value", metadataText(value))]) + "/>\n"
        }.joined()
    }

    private func metadataText(_ value: MetadataValue) -> String {
        switch value {
        case let .string(text): text
        case let .number(number): ExportXMLText.number(number)
        case let .bool(flag): flag ? "1" : "0"
        case let .date(date): self.date(date)
        case let .quantity(amount, unit): ExportXMLText.number(amount) + " " + unit
        }
    }

    func date(_ date: Date) -> String {
        ExportDate.format(date, in: timeZone)
    }

    /// The characteristics `<Me>` lists, in the order Apple writes them.
    static let meCharacteristics = [
        "HKCharacteristicTypeIdentifierDateOfBirth", "HKCharacteristicTypeIdentifierBiologicalSex",
        "HKCharacteristicTypeIdentifierBloodType", "HKCharacteristicTypeIdentifierFitzpatrickSkinType",
    ]
}

extension ExportXMLWriter {
    /// An HRV `<Record>` with its `HeartRateVariabilityMetadataList`, as Apple's export writes a
    /// heart-rate-variability sample whose heartbeat series Apple Watch saved with it: each beat's
    /// local time of day (`7:51:17.56 PM`, in this writer's zone) and the rate from the interval
    /// before it (after it, for the first).
    public func record(_ sample: SampleRecord, sourceName: String, sourceVersion: String?, beats: [Heartbeat]) -> String {
        var list = "  <HeartRateVariabilityMetadataList>\n"
        for (index, beat) in beats.enumerated() {
            let neighbour = index > 0 ? beats[index - 1].timeSinceSeriesStart : (beats.count > 1 ? beats[1].timeSinceSeriesStart : 0)
            let interval = abs(beat.timeSinceSeriesStart - neighbour)
            let bpm = interval > 0 ? Int64(saturating: 60 / interval) : 0
            list += "   <InstantaneousBeatsPerMinute" + ExportXMLText.attributes([
                ("bpm", "\(bpm)"), ("time", clockTime(sample.startDate.addingTimeInterval(beat.timeSinceSeriesStart))),
            ]) + "/>\n"
        }
        list += "  </HeartRateVariabilityMetadataList>\n"
        return record(sample, origin: Origin(name: sourceName, version: sourceVersion), indent: " ", beatList: list)
    }

    /// `7:51:17.56 PM`: Apple's 12-hour clock with hundredths.
    func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        let whole = date.timeIntervalSince1970.rounded(.down)
        var hundredths = Int(((date.timeIntervalSince1970 - whole) * 100).rounded())
        var second = parts.second ?? 0
        if hundredths == 100 { hundredths = 99 }  // never roll into the next second's digits
        let hour = parts.hour ?? 0
        second = min(second, 59)
        return String(format: "%d:%02d:%02d.%02d %@", hour % 12 == 0 ? 12 : hour % 12, parts.minute ?? 0, second, hundredths,
                      hour < 12 ? "AM" : "PM")
    }
}
