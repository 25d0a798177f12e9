import Foundation
import HealthModel
import HealthStore
import HealthWire

/// The manager's medication calls beyond saving (a medication and a dose event are saved with
/// `HealthManager/AddSamples`, validated by `SampleValidator` like every save). Apps reach none
/// of this: the method is in the manager's table only, and both types are refused to apps'
/// saves (`AppWritability`).
enum MedicationService {
    /// `healthctl medications archive`: the one field of a medication that changes after it was
    /// saved, as the user moves it to the archive in Apple's Health app. Recorded in the access
    /// log; the concept identifier stays out of the daemon's log (it may name the medication).
    static func archive(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try MedicationArchiveRequest(wire: payload)
        guard !request.conceptIdentifier.isEmpty else {
            throw HKError(.errorInvalidArgument, "name the medication by its concept identifier (`healthctl medications list`)")
        }
        try await context.store.withDatabase {
            try await $0.samples.setMedicationArchived(conceptIdentifier: request.conceptIdentifier, archived: request.archived)
        }
        CallAccessReport.record(appID: nil, types: [HKDataTypeIdentifierUserAnnotatedMedicationConcept], count: 1,
                                detail: request.archived ? "medication archived by the user" : "medication restored by the user")
        context.logger.info("medication archive changed")
        return MethodTable.Reply(EmptyMessage())
    }
}
