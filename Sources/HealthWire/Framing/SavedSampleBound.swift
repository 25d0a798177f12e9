public import HealthModel

/// The largest a saved sample may be, so that every answer that carries it fits one frame.
///
/// A save is bounded only by its frame (`WireLimits.maxFrameBytes`), but the answers that carry
/// the sample back add to it (its source revision, its UUID, the batch and frame around it): a
/// workout of events and activities with metadata filling a 4 MiB save would come back in a
/// frame past the limit, which every reader refuses — no batch cut could deliver it. So a sample
/// whose encoding passes `maxSampleBytes` is refused at its save, by every path that stores
/// samples (an app's save, the manager's entries and imports).
public enum SavedSampleBound {
    /// Room left in a frame for what answers add: a source revision of 5 bounded texts (at most
    /// a few KB), the UUID, the batch and the frame header.
    public static let answerOverheadBytes = 64 * 1024
    public static let maxSampleBytes = WireLimits.maxFrameBytes - answerOverheadBytes

    /// Throws `errorDataSizeExceeded` for the first record that encodes past `maxSampleBytes`.
    /// Only a payload past the bound can hold such a record, so an ordinary save costs nothing.
    public static func check(_ records: [SampleRecord], payloadBytes: Int) throws(HKError) {
        guard payloadBytes > maxSampleBytes else { return }
        for (index, record) in records.enumerated() {
            let size = SampleList([answered(record)]).wireBytes().count
            guard size <= maxSampleBytes else {
                throw HKError(.errorDataSizeExceeded,
                              "sample \(index) (\(record.typeIdentifier.prefix(100))) encodes to \(size) bytes; a sample may take at most "
                              + "\(maxSampleBytes) so that every answer carrying it fits a \(WireLimits.maxFrameBytes)-byte frame: "
                              + "save fewer workout events, activities or metadata in it")
            }
        }
    }

    /// The record as answers carry it: a workout's samples to associate travel only on its save.
    private static func answered(_ record: SampleRecord) -> SampleRecord {
        guard case var .workout(workout) = record.value, !workout.associatedSampleUUIDs.isEmpty else { return record }
        var answered = record
        workout.associatedSampleUUIDs = []
        answered.value = .workout(workout)
        return answered
    }
}
