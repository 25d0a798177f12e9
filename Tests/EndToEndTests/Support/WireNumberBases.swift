import Foundation
import HealthModel
import HealthWire

/// Valid requests of every kind `WireNumberJunkEndToEndTests` varies: each carries as many
/// numeric fields as its kind has, set to ordinary values, so that varying one leaves the rest
/// valid. A save holds one sample, so one refusal refuses only the field varied.
enum WireNumberBases {
    struct Base: Sendable {
        let name: String
        let method: HealthStoreMethod
        let stream: Bool
        let bytes: [UInt8]
    }

    static let start = JunkRecords.start
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    /// Shared by the app; all but CDA documents and vision prescriptions (read per object) are read back.
    static let types = JunkRecords.types + [sleep, HKWorkoutRouteTypeIdentifier]
    static let readTypes = types.filter { $0 != JunkRecords.cda && $0 != HKVisionPrescriptionTypeIdentifier }

    /// Fields no base carries yet, each with why: the sweep checks the list is exact, so a base
    /// that starts carrying one (or a field that stops being swept) updates it. Their rules are
    /// still required by the first test.
    static let notYetBuilt: Set<String> = [
        // Apps cannot write these kinds (the user's import writes them); a save is refused whole.
        "Electrocardiogram.average_heart_rate", "Electrocardiogram.sampling_frequency", "Electrocardiogram.classification",
        "Electrocardiogram.symptoms_status", "Electrocardiogram.voltage_count", "Electrocardiogram.voltages",
        "MedicationDoseEvent.dose_quantity", "MedicationDoseEvent.scheduled_dose_quantity", "MedicationDoseEvent.log_status",
        "MedicationDoseEvent.schedule_type", "MedicationDoseEvent.scheduled_date_us",
        // A verifiable-record query waits for the user's answer in healthctl (a prompt): its two
        // dates are checked by decoding (an end before its start is refused) and compare only.
        "VerifiableRecordQuery.relevant_start_us", "VerifiableRecordQuery.relevant_end_us",
        // Computed by healthd and only answered.
        "Sample.route_location_count",
        "QuantitySeries.values", "QuantitySeries.minimum", "QuantitySeries.maximum", "QuantitySeries.most_recent",
        "QuantitySeries.count", "QuantitySeries.start_us", "QuantitySeries.end_us", "QuantitySeries.most_recent_start_us",
        "QuantitySeries.most_recent_end_us",
        // Query steering with no base yet: answered or refused by the query layer, never stored.
        "ActivityDuration.seconds", "StateOfMindPredicate.valence", "StateOfMindPredicate.value", "ElectrocardiogramPredicate.value",
        "MedicationPredicate.start_us", "MedicationPredicate.end_us", "MedicationPredicate.values", "WorkoutActivityPredicate.activity_type",
        "WorkoutStatisticPredicate.value", "WorkoutTotalPredicate.value", "CalendarDay.year", "CalendarDay.month", "CalendarDay.day",
        "ObserverAcknowledgement.observer_id", "ObserverAcknowledgement.delivery", "ObserverAcknowledgement.step",
        "AppendAttachmentDataRequest.offset", "ActivityCompound.join", "SortDescriptor.key", "ActivityDuration.operator",
        "WorkoutStatisticPredicate.operator", "WorkoutStatisticPredicate.statistic", "WorkoutTotalPredicate.operator",
        "WorkoutTotalPredicate.field", "StateOfMindPredicate.operator", "StateOfMindPredicate.field", "ElectrocardiogramPredicate.field",
        "MedicationPredicate.field", "DevicePredicate.property",
    ]

    static func all(_ app: RawApp) async throws -> [Base] {
        let attachTo = try await app.save([JunkRecords.glasses()])
        return saves + [route, attachment(to: attachTo.first ?? UUID())] + queries
    }

    static func save(_ name: String, _ record: SampleRecord) -> Base {
        Base(name: name, method: .save, stream: false, bytes: SampleList([record]).wireBytes())
    }

    static var saves: [Base] {
        let device = DeviceRecord(name: "watch", manufacturer: "m")
        let metadata: [String: MetadataValue] = ["org.test.n": .number(2), "org.test.d": .date(start),
                                                 "org.test.q": .quantity(value: 3, unit: "m")]
        let lens = LensSpecificationValue(sphere: -2, cylinder: -1, axis: 90, addPower: 1, vertexDistance: 12,
                                          prism: VisionPrismValue(amount: 1, angle: 90, eye: 1), farPupillaryDistance: 60,
                                          nearPupillaryDistance: 58)
        let contactLens = LensSpecificationValue(sphere: -2, baseCurve: 8.6, diameter: 14)
        let activity = WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.running.rawValue, locationType: 2,
                                             swimmingLocationType: 0, startDate: start, endDate: start.addingTimeInterval(300))
        var workout = WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 600,
                                   totalEnergyBurned: RecordedQuantity(100, unit: "kcal"), totalDistance: RecordedQuantity(1_000, unit: "m"),
                                   events: [WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start.addingTimeInterval(10),
                                                               endDate: start.addingTimeInterval(10), metadata: ["org.test.n": .number(1)])],
                                   activities: [activity], statistics: [JunkRecords.distance(sum: 1_000)])
        workout.statistics = [JunkRecords.distance(sum: 1_000)]
        return [
            save("steps with metadata and device", JunkRecords.stepsSample(device: device, metadata: metadata)),
            save("glasses", JunkRecords.record(HKVisionPrescriptionTypeIdentifier, .visionPrescription(VisionPrescriptionValue(
                kind: VisionPrescriptionValue.glasses, hasLenses: true, expirationDate: start.addingTimeInterval(86_400 * 365),
                rightEye: lens, leftEye: lens)))),
            // An expiration travels with its own presence flag: without it the date is ignored, so the base carries one.
            save("contacts", JunkRecords.record(HKVisionPrescriptionTypeIdentifier, .visionPrescription(VisionPrescriptionValue(
                kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: start.addingTimeInterval(86_400 * 365),
                rightEye: contactLens, brand: "b")))),
            save("state of mind", JunkRecords.mood(0.5, labels: [1], associations: [1])),
            save("audiogram", JunkRecords.audiogram(lower: -10, upper: 100)),
            save("GAD-7", JunkRecords.assessment([0, 1, 2, 3, 0, 1, 2])),
            save("heartbeats", JunkRecords.heartbeats([0, 1, 2])),
            save("workout", JunkRecords.record(HKWorkoutTypeIdentifier, .workout(workout), end: start.addingTimeInterval(600))),
            save("sleep", JunkRecords.record(sleep, .category(1), end: start.addingTimeInterval(3_600))),
        ]
    }

    static var route: Base {
        let location = RouteLocation(timestamp: start.addingTimeInterval(1), latitude: 46.5, longitude: 6.6, altitude: 400,
                                     horizontalAccuracy: 5, verticalAccuracy: 3, course: 90, speed: 3)
        return Base(name: "route location", method: .insertRouteData, stream: false,
                    bytes: RouteDataChunk(builderID: UUID(), locations: [location]).wireBytes())
    }

    static func attachment(to sample: UUID) -> Base {
        Base(name: "attachment upload", method: .beginAttachment, stream: false,
             bytes: AttachmentUploadStart(object: AttachmentObjectRef(uuid: sample, typeIdentifier: HKVisionPrescriptionTypeIdentifier), name: "a.pdf",
                                          contentType: "application/pdf", size: 10, metadata: [:]).wireBytes())
    }

    static var queries: [Base] {
        let steps = JunkRecords.steps
        let predicate = SamplePredicate.and([
            .dateRange(start: start, end: start.addingTimeInterval(86_400), strictStart: false, strictEnd: false),
            .quantity(.greaterThan, value: 1, unit: "count"),
            .metadata(key: "org.test.n", .compare(.greaterThan, .number(1))),
            .metadata(key: "org.test.d", .compare(.lessThan, .date(start))),
        ])
        let statistics = StatisticsQuerySpec(typeIdentifier: steps, predicate: predicate, options: .cumulativeSum)
        return [
            Base(name: "sample query", method: .querySamples, stream: true,
                 bytes: SampleQuerySpec(typeIdentifier: steps, predicate: predicate, limit: 10).wireBytes()),
            Base(name: "category query", method: .querySamples, stream: true,
                 bytes: SampleQuerySpec(typeIdentifier: sleep, predicate: .and([.categoryValue(.equalTo, 1), .categoryValues([0, 1])])).wireBytes()),
            Base(name: "workout query", method: .querySamples, stream: true,
                 bytes: SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier,
                                        predicate: .workoutActivityType(HKWorkoutActivityType.running.rawValue)).wireBytes()),
            Base(name: "anchored query", method: .queryAnchored, stream: true,
                 bytes: AnchoredQuerySpec(typeIdentifier: steps, limit: 5).wireBytes()),
            Base(name: "statistics", method: .queryStatistics, stream: false, bytes: statistics.wireBytes()),
            Base(name: "statistics collection", method: .queryStatisticsCollection, stream: true,
                 bytes: StatisticsCollectionSpec(statistics: statistics, anchor: start, interval: StatisticsInterval(days: 1),
                                                 timeZoneIdentifier: "UTC").wireBytes()),
            Base(name: "background delivery", method: .enableBackgroundDelivery, stream: false,
                 bytes: BackgroundDeliverySpec(typeIdentifier: steps, frequency: .hourly).wireBytes()),
        ]
    }
}
