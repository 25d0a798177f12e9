public import Foundation
import HealthModel
import HealthWire

/// HealthKit's `HKUserAnnotatedMedicationQuery` (iOS 26): the user's medications that the app
/// may read (those the user granted it per object) matching `predicate`, at most `limit`
/// (`HKObjectQueryNoLimit` for all). The results handler is called once per medication with
/// `done` false, then once with nil and `done` true — or once with an error.
///
/// healthd answers it as a sample query on `HKObjectType.userAnnotatedMedicationType()` under
/// the app's per-object scope (the visibility choke point), in the order the medications were
/// added. A medication the user did not grant looks absent, as if it did not exist.
public final class HKUserAnnotatedMedicationQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKUserAnnotatedMedicationQuery, HKUserAnnotatedMedication?, Bool, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler
    private let request: Result<SampleQuerySpec, HKError>

    @preconcurrency
    public init(predicate: NSPredicate?, limit: Int, resultsHandler: @escaping ResultsHandler) {
        self.resultsHandler = resultsHandler
        request = Self.spec(predicate: predicate, limit: limit)
        super.init(objectType: HKObjectType.userAnnotatedMedicationType(), predicate: predicate)
    }

    static func spec(predicate: NSPredicate?, limit: Int) -> Result<SampleQuerySpec, HKError> {
        Result { () throws(HKError) in
            guard limit >= 0 else { throw HKError(.errorInvalidArgument, "limit must be HKObjectQueryNoLimit (0) or a positive number") }
            return SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept,
                                   predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
                                   sort: [SampleSort(.startDate, ascending: true)], limit: limit)
        }
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                for medication in try await Self.medications(try request.get(), on: connection) {
                    resultsHandler(self, medication, false, nil)
                }
                resultsHandler(self, nil, true, nil)
            } catch {
                resultsHandler(self, nil, true, error)
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, true, HKError(.errorInvalidArgument,
                    "this HKUserAnnotatedMedicationQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }

    static func medications(_ spec: SampleQuerySpec, on connection: BrokerConnection) async throws(HKError) -> [HKUserAnnotatedMedication] {
        try await connection.samples(matching: spec).map { (sample) throws(HKError) in
            guard let object = sample as? UserAnnotatedMedicationObject else {
                throw HKError(.unknownError, "healthd answered a medication query with another kind of object")
            }
            return HKUserAnnotatedMedication(object.value)
        }
    }
}

/// HealthKit's `HKUserAnnotatedMedicationQueryDescriptor` (iOS 26):
/// `try await HKUserAnnotatedMedicationQueryDescriptor(predicate:limit:).result(for: store)`.
public struct HKUserAnnotatedMedicationQueryDescriptor: @unchecked Sendable {
    // @unchecked: an NSPredicate is not marked Sendable but is never mutated here (as HKQueryDescriptor).
    public var predicate: NSPredicate?
    /// The most medications to return; nil for all.
    public var limit: Int?

    public init(predicate: NSPredicate? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.limit = limit
    }

    public func result(for healthStore: HKHealthStore) async throws -> [HKUserAnnotatedMedication] {
        let predicate = predicate
        let limit = limit ?? HKObjectQueryNoLimit
        return try await withCheckedThrowingContinuation { continuation in
            let collected = MedicationCollector()
            let query = HKUserAnnotatedMedicationQuery(predicate: predicate, limit: limit) { _, medication, done, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let medication {
                    collected.append(medication)
                } else if done {
                    continuation.resume(returning: collected.all)
                }
            }
            healthStore.execute(query)
        }
    }
}

/// The medications a descriptor's query delivered so far (the handler is called from a task).
private final class MedicationCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var medications: [HKUserAnnotatedMedication] = []

    func append(_ medication: HKUserAnnotatedMedication) { lock.withLock { medications.append(medication) } }
    var all: [HKUserAnnotatedMedication] { lock.withLock { medications } }
}
