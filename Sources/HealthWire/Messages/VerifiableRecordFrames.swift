public import HealthModel

/// The bounds that keep every answer carrying verifiable records within a frame
/// (`WireLimits.maxFrameBytes`), whatever the cards imported: the manager's listings are cut
/// into frames by bytes, and what an app is sent is checked to fit one answer before the user's
/// pick is accepted (red team, session 22, finding 3: a 64-card file made an 8.5 MB answer, and
/// every later listing failed).
extension VerifiableRecordList {
    /// Room left in a frame for what an answer adds around the list (the frame's header, the call
    /// id), as for saved samples (`SavedSampleBound.answerOverheadBytes`).
    public static let appAnswerBytes = WireLimits.maxFrameBytes - SavedSampleBound.answerOverheadBytes

    /// A listing in frames: at most `maxRecords` records and about `maxBytes` each (a record
    /// larger than that travels alone; a summary is at most a few hundred KB, however old the
    /// card, so it always fits a frame).
    public static func frames(_ records: [VerifiableRecord], maxBytes: Int = WireLimits.resultBatchBytes) -> [VerifiableRecordList] {
        let sized = records.map { (record: $0, size: VerifiableRecordList([$0]).wireBytes().count) }
        return FrameBatcher.batches(sized, maxCount: maxRecords, maxBytes: maxBytes, size: \.size).map { batch in
            VerifiableRecordList(batch.map(\.record))
        }
    }

    /// The encoded size of the answer an app is sent for `records` (whole, without the manager's
    /// fields), and whether it fits `appAnswerBytes`.
    public static func appAnswerSize(_ records: [VerifiableRecord]) -> (bytes: Int, fits: Bool) {
        let bytes = VerifiableRecordList(records.map(\.sharedWithApp)).wireBytes().count
        return (bytes, bytes <= appAnswerBytes && records.count <= maxRecords)
    }
}
