public import Foundation

/// What `HKVerifiableClinicalRecordQuery` asks for: the record types, the source types and the
/// relevant-date interval of `predicateForVerifiableClinicalRecords(withRelevantDateWithin:)`.
/// `matches` is the one rule of which records the user is offered.
public struct VerifiableRecordQuerySpec: Sendable, Equatable {
    public var recordTypes: [String]
    /// Empty: SMART Health Cards, as the older initializer without source types reads them
    /// (Apple: "Creates a query for one-time access to a SMART Health Card").
    public var sourceTypes: [String]
    /// Inclusive at both ends, as `DateInterval.contains`.
    public var relevantInterval: ClosedRange<Date>?

    public static let maxRecordTypes = 32
    public static let maxSourceTypes = 8
    public static let maxTypeBytes = 256

    public init(recordTypes: [String], sourceTypes: [String], relevantInterval: ClosedRange<Date>?) {
        self.recordTypes = recordTypes
        self.sourceTypes = sourceTypes
        self.relevantInterval = relevantInterval
    }

    /// The source types the query reads.
    public var effectiveSourceTypes: [String] {
        sourceTypes.isEmpty ? [VerifiableRecordSourceType.smartHealthCard] : sourceTypes
    }

    /// A record matches when it is of a requested source type, carries every requested record
    /// type (SMART Health Cards' types refine each other: a COVID-19 immunization card carries
    /// both #immunization and #covid19), and its relevant date is within the interval.
    public func matches(_ record: VerifiableRecord) -> Bool {
        guard effectiveSourceTypes.contains(record.sourceType) else { return false }
        let types = Set(record.recordTypes)
        guard recordTypes.allSatisfy(types.contains) else { return false }
        if let relevantInterval, !relevantInterval.contains(record.relevantDate) { return false }
        return true
    }

    /// Checks the request's bounds: what an app may ask, apart from what is stored.
    public func validate() throws(HKError) {
        guard recordTypes.count <= Self.maxRecordTypes, sourceTypes.count <= Self.maxSourceTypes else {
            throw HKError(.errorInvalidArgument, "a verifiable clinical record query names at most \(Self.maxRecordTypes) record types "
                          + "and \(Self.maxSourceTypes) source types")
        }
        for type in recordTypes + sourceTypes where type.utf8.count > Self.maxTypeBytes || type.isEmpty {
            throw HKError(.errorInvalidArgument, "a verifiable clinical record query's types must be 1 to \(Self.maxTypeBytes) bytes")
        }
        let known: Set = [VerifiableRecordSourceType.smartHealthCard, VerifiableRecordSourceType.euDigitalCOVIDCertificate]
        for source in sourceTypes where !known.contains(source) {
            throw HKError(.errorInvalidArgument, "'\(source.prefix(64))' is not an HKVerifiableClinicalRecordSourceType")
        }
    }
}
