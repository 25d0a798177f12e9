public import Foundation

/// A hearing test's results, as HealthKit's `HKAudiogramSample`: sensitivity points by frequency.
///
/// Like HealthKit's, the initializers do not throw. HealthKit raises an Objective-C exception
/// when the points break its rules (more than 30, frequencies not unique and ascending), which
/// Swift cannot catch; here `save` fails with `HKError.errorInvalidArgument` naming the rule
/// (healthd's validator, `AudiogramRules`). Apps read and write audiograms with the usual
/// permissions for `HKObjectType.audiogramSampleType()`.
public final class HKAudiogramSample: HKSample, @unchecked Sendable {
    /// The results, one point per frequency, ascending.
    public let sensitivityPoints: [HKAudiogramSensitivityPoint]

    /// HealthKit's iOS 13 initializer (deprecated in iOS 18.1 for the one with `device:`).
    public convenience init(sensitivityPoints: [HKAudiogramSensitivityPoint], start startDate: Date, end endDate: Date,
                            metadata: [String: Any]?) {
        self.init(sensitivityPoints: sensitivityPoints, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    /// HealthKit's iOS 18.1 initializer.
    public init(sensitivityPoints: [HKAudiogramSensitivityPoint], start startDate: Date, end endDate: Date,
                device: HKDevice?, metadata: [String: Any]?) {
        self.sensitivityPoints = sensitivityPoints
        super.init(type: HKObjectType.audiogramSampleType(), value: .audiogram(AudiogramValue(points: sensitivityPoints.map(\.value))),
                   start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`).
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKAudiogramSampleType,
              case let .audiogram(value) = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, value, parts: archived.parts)
    }

    /// A fetched audiogram; nil when a point holds a raw value this SDK does not know (a newer healthd).
    init?(type: HKAudiogramSampleType, fetched record: SampleRecord, _ value: AudiogramValue, parts: FetchedObjectParts) {
        let points = value.points.compactMap(HKAudiogramSensitivityPoint.init(fetched:))
        guard points.count == value.points.count else { return nil }
        sensitivityPoints = points
        super.init(type: type, fetched: record, parts: parts)
    }
}

extension HKSamplePredicate where Sample == HKAudiogramSample {
    /// HealthKit's `HKSamplePredicate.audiogram(_:)` (developer.apple.com/documentation/healthkit/hksamplepredicate/audiogram(_:)).
    public static func audiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKAudiogramSample> {
        HKSamplePredicate(sampleType: HKObjectType.audiogramSampleType(), nsPredicate: predicate)
    }
}
