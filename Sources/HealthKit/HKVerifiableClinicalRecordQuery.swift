public import Foundation
import HealthModel
import HealthWire

/// HealthKit's `HKVerifiableClinicalRecordQuery` (iOS 15): Apple's "query for one-time access to
/// a SMART Health Card". Here the user is asked in `healthctl object-requests`, which lists the
/// records matching the query; the results handler gets exactly the records the user chose to
/// share, once (nothing is granted for later: each query asks again), or `errorUserCanceled`
/// when the user shared none. The app learns nothing of the records it was not given. The
/// records are not in the sample store: no other query reads them.
///
/// Needs the Health Records capability (`"com.apple.developer.healthkit.access":
/// ["health-records"]` in the app's manifest) and a read usage description.
public final class HKVerifiableClinicalRecordQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKVerifiableClinicalRecordQuery, [HKVerifiableClinicalRecord]?, (any Error)?) -> Void

    public let recordTypes: [String]
    public let sourceTypes: [HKVerifiableClinicalRecordSourceType]

    private let resultsHandler: ResultsHandler
    private let spec: Result<VerifiableRecordQuerySpec, HKError>

    /// Apple (iOS 15.4): the types, the formats and a predicate
    /// (`predicateForVerifiableClinicalRecords(withRelevantDateWithin:)`, or nil).
    @preconcurrency
    public init(recordTypes: [String], sourceTypes: [HKVerifiableClinicalRecordSourceType], predicate: NSPredicate?,
                resultsHandler: @escaping ResultsHandler) {
        self.recordTypes = recordTypes
        self.sourceTypes = sourceTypes
        self.resultsHandler = resultsHandler
        spec = Self.spec(recordTypes: recordTypes, sourceTypes: sourceTypes.map(\.rawValue), predicate: predicate)
        super.init(objectType: nil, predicate: predicate)
    }

    /// Apple (iOS 15): "Creates a query for one-time access to a SMART Health Card".
    @preconcurrency
    public convenience init(recordTypes: [String], predicate: NSPredicate?, resultsHandler: @escaping ResultsHandler) {
        self.init(recordTypes: recordTypes, sourceTypes: [.smartHealthCard], predicate: predicate, resultsHandler: resultsHandler)
    }

    static func spec(recordTypes: [String], sourceTypes: [String], predicate: NSPredicate?) -> Result<VerifiableRecordQuerySpec, HKError> {
        Result { () throws(HKError) in
            var interval: ClosedRange<Date>?
            switch predicate {
            case nil: break
            case let predicate as VerifiableRecordPredicate: interval = predicate.relevantInterval
            default:
                throw HKError(.errorInvalidArgument, "a verifiable clinical record query takes only the predicate of "
                              + "HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin:)")
            }
            let spec = VerifiableRecordQuerySpec(recordTypes: recordTypes, sourceTypes: sourceTypes, relevantInterval: interval)
            try spec.validate()
            return spec
        }
    }

    override func start(on connection: BrokerConnection) {
        let spec = spec
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let list: VerifiableRecordList = try await connection.call(.queryVerifiableRecords, try spec.get())
                resultsHandler(self, list.records.map(HKVerifiableClinicalRecord.init), nil)
            } catch {
                resultsHandler(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, HKError(.errorInvalidArgument,
                                                  "this HKVerifiableClinicalRecordQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
