import HealthModel

/// The documented rule of every number an app can send (`WireNumberFields.all`), keyed
/// `Message.field`. `WireNumberJunkEndToEndTests` fails while a field has no entry here, so a
/// field added to the wire cannot reach healthd unconsidered: whoever adds it must say which
/// validator bounds it, or why no bound applies.
///
/// A rule says which values must be refused (`refuses`) and names the choke point that does
/// it. A value it does not refuse may still be refused for its context (a date outside the
/// workout, a unit that does not fit); it must then be refused with a typed error.
struct WireNumberRule: Sendable {
    /// What the field is and where its bound lives, for failure messages and review.
    let rule: String
    /// Values that must be refused: outside the documented range. Also checked on every value
    /// read back: nothing stored may break it.
    let refuses: @Sendable (Double) -> Bool
    /// Whether the value is stored (and so read back and checked) or only steers a query or a call.
    let stored: Bool

    /// Stored; finite and inside `range`.
    static func stored(_ range: ClosedRange<Double>, _ rule: String) -> WireNumberRule {
        WireNumberRule(rule: rule, refuses: { !$0.isFinite || !range.contains($0) }, stored: true)
    }

    /// Stored; finite, with a further per-type bound (`rule` names where).
    static func finite(_ rule: String) -> WireNumberRule {
        WireNumberRule(rule: rule, refuses: { !$0.isFinite }, stored: true)
    }

    /// CoreLocation's convention: negative means "not known" (any negative value is kept as
    /// such); otherwise finite and at most `maximum`.
    static func negativeIsUnknown(upTo maximum: Double, _ rule: String) -> WireNumberRule {
        WireNumberRule(rule: rule, refuses: { !$0.isFinite || $0 > maximum }, stored: true)
    }

    /// Stored date in microseconds since 1970: inside 1900-01-01…2200-01-01 (`SampleLimits`).
    static func date(_ rule: String) -> WireNumberRule {
        let window = SampleLimits.earliestPermittedSampleDate.microsecondsSince1970 ... SampleLimits.latestPermittedSampleDate.microsecondsSince1970
        return WireNumberRule(rule: rule, refuses: { !$0.isFinite || !(Double(window.lowerBound) ... Double(window.upperBound)).contains($0) },
                              stored: true)
    }

    /// Steers a query or a call and is never stored: any value is answered or refused with a
    /// typed error, never a crash or a hang (`reason` says why no bound is required).
    static func steering(_ reason: String) -> WireNumberRule {
        WireNumberRule(rule: reason, refuses: { _ in false }, stored: false)
    }

    /// Sent by healthd, not taken from apps: an app's value is ignored or refused.
    static func ignored(_ reason: String) -> WireNumberRule {
        WireNumberRule(rule: reason, refuses: { _ in false }, stored: false)
    }
}

enum WireNumberRules {
    static let all: [String: WireNumberRule] = samples.merging(values, uniquingKeysWith: { a, _ in a })
        .merging(routes, uniquingKeysWith: { a, _ in a }).merging(queries, uniquingKeysWith: { a, _ in a })

    /// Every sample's frame and common values (SampleValidator, MetadataValidator).
    static let samples: [String: WireNumberRule] = [
        "Sample.start_us": .date("SampleValidator: start and end dates within 1900–2200"),
        "Sample.end_us": .date("SampleValidator: start and end dates within 1900–2200"),
        "Sample.category_value": .stored(0 ... Double(Int32.max), "SampleValidator: the category type's own codes, all non-negative"),
        "Sample.route_location_count": .ignored("healthd counts a route's locations; the count an app sends is not read"),
        "Quantity.value": .finite("QuantityValueRanges: finite, and inside the type's range once converted to its canonical unit"),
        "MetadataValue.number_value": .finite("MetadataValidator: finite numbers"),
        "MetadataValue.date_us": .date("MetadataValidator: dates within 1900–2200"),
    ]

    /// Values of particular sample kinds, each kind's validator.
    static let values: [String: WireNumberRule] = [
        "Workout.duration": .stored(0 ... 1e12, "WorkoutValidator: finite, not negative, at most the workout's span"),
        "Workout.activity_type": .stored(1 ... 3_000, "WorkoutValidator: an HKWorkoutActivityType raw value"),
        "WorkoutActivity.activity_type": .stored(1 ... 3_000, "WorkoutValidator+Activities: an HKWorkoutActivityType raw value"),
        "WorkoutActivity.start_us": .date("WorkoutValidator+Activities: inside the workout"),
        "WorkoutActivity.end_us": .date("WorkoutValidator+Activities: inside the workout"),
        "WorkoutActivity.location_type": .stored(0 ... 3, "WorkoutValidator+Activities: HKWorkoutSessionLocationType"),
        "WorkoutActivity.swimming_location_type": .stored(0 ... 2, "WorkoutValidator+Activities: HKWorkoutSwimmingLocationType"),
        "WorkoutEvent.type": .stored(1 ... 8, "WorkoutValidator: HKWorkoutEventType"),
        "WorkoutEvent.start_us": .date("WorkoutValidator: inside the workout"),
        "WorkoutEvent.end_us": .date("WorkoutValidator: inside the workout"),
        "WorkoutStatistics.start_us": .date("WorkoutValidator: inside the workout"),
        "WorkoutStatistics.end_us": .date("WorkoutValidator: inside the workout"),
        "HeartbeatSeries.times_since_start": .stored(0 ... 1e12, "SeriesValidator: finite, not negative, increasing, inside the sample"),
        "HeartbeatSeries.count": .ignored("healthd counts the beats it stores; a sample query answers with it"),
        "QuantitySeries.values": .finite("SeriesValidator: each value by the type's QuantityValueRanges"),
        "QuantitySeries.minimum": .ignored("computed by healthd from the series"),
        "QuantitySeries.maximum": .ignored("computed by healthd from the series"),
        "QuantitySeries.most_recent": .ignored("computed by healthd from the series"),
        "QuantitySeries.count": .ignored("computed by healthd from the series"),
        "QuantitySeries.start_us": .ignored("computed by healthd from the series"),
        "QuantitySeries.end_us": .ignored("computed by healthd from the series"),
        "QuantitySeries.most_recent_start_us": .ignored("computed by healthd from the series"),
        "QuantitySeries.most_recent_end_us": .ignored("computed by healthd from the series"),
        "Electrocardiogram.average_heart_rate": .stored(0 ... 1_000, "electrocardiograms are written by the user's import only; an app's is refused"),
        "Electrocardiogram.sampling_frequency": .stored(0 ... 1e6, "electrocardiograms are written by the user's import only"),
        "Electrocardiogram.classification": .stored(0 ... 100, "electrocardiograms are written by the user's import only"),
        "Electrocardiogram.symptoms_status": .stored(0 ... 100, "electrocardiograms are written by the user's import only"),
        "Electrocardiogram.voltage_count": .ignored("healthd counts the voltages"),
        "Electrocardiogram.voltages": .finite("electrocardiograms are written by the user's import only"),
        "StateOfMind.valence": .stored(-1 ... 1, "StateOfMindValidator: −1…1 (HKStateOfMind.valence)"),
        "StateOfMind.kind": .stored(1 ... 2, "StateOfMindValidator: HKStateOfMind.Kind"),
        "StateOfMind.labels": .stored(1 ... 1_000, "StateOfMindValidator: HKStateOfMind.Label raw values"),
        "StateOfMind.associations": .stored(1 ... 1_000, "StateOfMindValidator: HKStateOfMind.Association raw values"),
        "ScoredAssessment.answers": .stored(0 ... 3, "ScoredAssessmentRules: each answer 0…3 (GAD-7, PHQ-9)"),
        "AudiogramPoint.frequency_hz": .stored(0 ... 1e6, "AudiogramRules: finite, not negative"),
        "AudiogramTest.sensitivity_dbhl": .stored(-1e6 ... 160, "AudiogramRules: finite, at most 160 dBHL"),
        "AudiogramTest.conduction_type": .stored(0 ... 1, "AudiogramRules: HKAudiogramConductionType"),
        "AudiogramTest.side": .stored(0 ... 1, "AudiogramRules: HKAudiogramSensitivityTestSide"),
        "AudiogramBound.dbhl": .finite("AudiogramRules: finite, lower below upper"),
        "LensSpecification.sphere": .finite("VisionPrescriptionValidator: finite, within the prescription's range"),
        "Measure.value": .finite("VisionPrescriptionValidator: finite, within each measure's range"),
        "VisionPrism.amount": .stored(0 ... 1e6, "VisionPrescriptionValidator: finite, not negative"),
        "VisionPrism.angle": .stored(0 ... 360, "VisionPrescriptionValidator: 0…360 degrees"),
        "VisionPrism.eye": .stored(1 ... 2, "VisionPrescriptionValidator: HKVisionPrismBase"),
        "VisionPrescription.prescription_type": .stored(1 ... 2, "VisionPrescriptionValidator: glasses or contacts"),
        "VisionPrescription.expiration_us": .date("VisionPrescriptionValidator: within 1900–2200, not before the date issued"),
        "MedicationDoseEvent.dose_quantity": .stored(0 ... 1e12, "dose events are the user's (healthctl): MedicationDoseRules"),
        "MedicationDoseEvent.scheduled_dose_quantity": .stored(0 ... 1e12, "dose events are the user's (healthctl): MedicationDoseRules"),
        "MedicationDoseEvent.log_status": .stored(0 ... 100, "dose events are the user's (healthctl)"),
        "MedicationDoseEvent.schedule_type": .stored(0 ... 100, "dose events are the user's (healthctl)"),
        "MedicationDoseEvent.scheduled_date_us": .date("dose events are the user's (healthctl)"),
    ]

    /// Route locations (RouteLocationValidator), by CoreLocation's CLLocation documentation:
    /// horizontalAccuracy "a negative value indicates that the latitude and longitude are
    /// invalid" (refused: leave such fixes out); verticalAccuracy, speed and course "a negative
    /// value indicates" an invalid (unknown) altitude, speed or course (kept as unknown).
    static let routes: [String: WireNumberRule] = [
        "Location.latitude": .stored(-90 ... 90, "RouteLocationValidator: −90…90 degrees"),
        "Location.longitude": .stored(-180 ... 180, "RouteLocationValidator: −180…180 degrees"),
        "Location.altitude": .stored(RouteLocationValidator.altitudeRange, "RouteLocationValidator: deepest ocean floor to the edge of space"),
        "Location.horizontal_accuracy": .stored(0 ... RouteLocationValidator.maximumAccuracy, "RouteLocationValidator: not negative, at most half the Earth's circumference"),
        "Location.vertical_accuracy": .negativeIsUnknown(upTo: RouteLocationValidator.maximumAccuracy, "RouteLocationValidator: negative (unknown) or at most half the Earth's circumference"),
        "Location.speed": .negativeIsUnknown(upTo: RouteLocationValidator.maximumSpeed, "RouteLocationValidator: negative (unknown) or at most 1,000 m/s"),
        "Location.course": WireNumberRule(rule: "RouteLocationValidator: negative (unknown) or below 360 degrees",
                                          refuses: { !$0.isFinite || $0 >= 360 }, stored: true),
        "Location.timestamp_us": .date("RouteLocationValidator: within 1900–2200, inside the workout at finish"),
    ]

    /// Numbers that steer a query or a call and are never stored.
    static let queries: [String: WireNumberRule] = [
        "SampleQueryRequest.limit": .steering("a limit: any count, 0 for none"),
        "AnchoredQueryRequest.limit": .steering("a limit: any count, 0 for none"),
        "DateRangePredicate.start_us": .steering("a query bound: dates outside the store match nothing"),
        "DateRangePredicate.end_us": .steering("a query bound: dates outside the store match nothing"),
        "CategoryPredicate.value": .steering("compared with stored codes; no code matches junk"),
        "CategoryValuesPredicate.values": .steering("compared with stored codes; no code matches junk"),
        "PredicateQuantity.value": .steering("compared in SQL; NaN and infinities match nothing or everything, as Apple's predicates"),
        "MetadataOperand.number_value": .steering("compared with stored metadata"),
        "MetadataOperand.date_us": .steering("compared with stored metadata"),
        "Predicate.workout_activity_type": .steering("compared with stored workouts"),
        "WorkoutActivityPredicate.activity_type": .steering("compared with stored activities"),
        "WorkoutStatisticPredicate.value": .steering("compared with stored statistics"),
        "WorkoutTotalPredicate.value": .steering("compared with stored totals"),
        "ActivityDuration.seconds": .steering("compared with stored activity durations"),
        "StateOfMindPredicate.valence": .steering("compared with stored valences"),
        "StateOfMindPredicate.value": .steering("compared with stored kinds, labels and associations"),
        "ElectrocardiogramPredicate.value": .steering("compared with stored classifications"),
        "MedicationPredicate.start_us": .steering("a query bound"),
        "MedicationPredicate.end_us": .steering("a query bound"),
        "MedicationPredicate.values": .steering("compared with stored codes"),
        "VerifiableRecordQuery.relevant_start_us": .steering("a query bound on the user's cards' relevant dates; an end before the start is refused"),
        "VerifiableRecordQuery.relevant_end_us": .steering("a query bound on the user's cards' relevant dates; an end before the start is refused"),
        "StatisticsQueryRequest.options": .steering("HKStatisticsOptions bits; unknown bits are refused (StatisticsService)"),
        "StatisticsCollectionRequest.anchor_us": .steering("the buckets' anchor; any date"),
        "StatisticsInterval.minutes": .steering("bucket size: zero or too many buckets refused (StatisticsService)"),
        "StatisticsInterval.hours": .steering("bucket size: zero or too many buckets refused (StatisticsService)"),
        "StatisticsInterval.days": .steering("bucket size: zero or too many buckets refused (StatisticsService)"),
        "StatisticsInterval.weeks": .steering("bucket size: zero or too many buckets refused (StatisticsService)"),
        "StatisticsInterval.months": .steering("bucket size: zero or too many buckets refused (StatisticsService)"),
        "CalendarDay.year": .steering("an activity summary query's day; impossible days refused"),
        "CalendarDay.month": .steering("an activity summary query's day; impossible days refused"),
        "CalendarDay.day": .steering("an activity summary query's day; impossible days refused"),
        "BackgroundDeliveryRequest.frequency": .steering("HKUpdateFrequency; unknown values refused (BackgroundDeliveryService)"),
        "BeginAttachmentRequest.size": WireNumberRule(rule: "AttachmentRules.checkSize: 0…16 MiB",
                                                      refuses: { !(0 ... Double(AttachmentLimits.maximumBytes)).contains($0) }, stored: false),
        "AppendAttachmentDataRequest.offset": .steering("must equal the bytes received so far (AttachmentService)"),
        "ObserverAcknowledgement.observer_id": .steering("names one of the app's own observers; others are refused"),
        "ObserverAcknowledgement.delivery": .steering("names a delivery of that observer; others are ignored"),
        "ObserverAcknowledgement.step": .steering("an enum: values the decoder does not know are refused"),
        // Enums of queries: each decoder maps the known values and refuses the rest (PredicateWire, SampleSort+Wire).
        "SortDescriptor.key": .steering("an enum: unknown sort keys are refused"),
        "CompoundPredicate.operator": .steering("an enum: unknown operators are refused"),
        "ActivityCompound.join": .steering("an enum: unknown joins are refused"),
        "MetadataPredicate.operator": .steering("an enum: unknown operators are refused"),
        "MetadataPredicate.test": .steering("an enum: unknown tests are refused"),
        "CategoryPredicate.operator": .steering("an enum: unknown operators are refused"),
        "QuantityPredicate.operator": .steering("an enum: unknown operators are refused"),
        "DevicePredicate.property": .steering("an enum: unknown properties are refused"),
        "ActivityDuration.operator": .steering("an enum: unknown operators are refused"),
        "WorkoutStatisticPredicate.operator": .steering("an enum: unknown operators are refused"),
        "WorkoutStatisticPredicate.statistic": .steering("an enum: unknown statistics are refused"),
        "WorkoutTotalPredicate.operator": .steering("an enum: unknown operators are refused"),
        "WorkoutTotalPredicate.field": .steering("an enum: unknown fields are refused"),
        "StateOfMindPredicate.operator": .steering("an enum: unknown operators are refused"),
        "StateOfMindPredicate.field": .steering("an enum: unknown fields are refused"),
        "ElectrocardiogramPredicate.field": .steering("an enum: unknown fields are refused"),
        "MedicationPredicate.field": .steering("an enum: unknown fields are refused"),
    ]
}
