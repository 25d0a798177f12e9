import HealthModel
import HealthWire

/// Every message type on the wire, requests and replies (`WireMessage` conformances;
/// `FuzzMessageListTests` fails when one is missing). The first input byte picks one; the rest
/// is its payload.
let messageTypes: [any WireMessage.Type] = [
    AccessLogPage.self, AccessLogQuery.self, AccessLogVerificationMessage.self, ActivityGoalSchedule.self,
    ActivityGoalUpdate.self, ActivitySummaryBatch.self, ActivitySummaryQuerySpec.self, AnchoredQueryBatch.self,
    AnchoredQuerySpec.self, AppGrants.self, AuthorizationPrompt.self, AuthorizationTypes.self,
    BackgroundDeliverySpec.self, BackgroundRegistrationList.self, BackgroundRegistrationQuery.self, BrokerStatus.self,
    CharacteristicList.self, CharacteristicRecord.self, CorrelationQuerySpec.self, DeletedCount.self, EmptyMessage.self,
    FinishedRoute.self, GrantList.self, KeyStatus.self, LaunchRequest.self, ManifestList.self, MatchingDeletion.self,
    ObjectDeletion.self, ObserverDelivery.self, PasscodeCredentials.self, PreferredUnit.self, PreferredUnitList.self,
    PreferredUnitsRequest.self, PromptAnswer.self, PromptList.self, RouteDataChunk.self, RouteDataQuery.self,
    RouteFinish.self, RouteLocationBatch.self, RouteLocationCount.self, SampleList.self, SampleQuerySpec.self,
    SavedUUIDs.self, SourceEntryList.self, SourceList.self, SourceListRequest.self, SourcePriorityChange.self,
    StatisticsBatch.self, StatisticsCollectionDelivery.self, StatisticsCollectionSpec.self, StatisticsQuerySpec.self,
    StatisticsResult.self, StatusValue.self, TypeIdentifierMessage.self, TypePredicateSpec.self, WorkoutAssociation.self,
    // Added in session 16 (after the list above), at the end so the seeds' type indexes stay.
    AppRemoval.self, AttachmentDataChunk.self, AttachmentInfoMessage.self, AttachmentList.self,
    AttachmentListRequest.self, AttachmentRequest.self, AttachmentUploadChunk.self, AttachmentUploadID.self,
    AttachmentUploadStart.self, CurrentSourceRequest.self, DirectConnectionSetting.self, ImportBatch.self,
    ImportOutcome.self, LaunchBinding.self, LaunchOutcome.self, ManagerDeletion.self, MedicationArchiveRequest.self,
    NetworkAccessSetting.self, ObjectReadGrants.self, ObserverAcknowledgement.self, PerObjectPromptList.self,
    SeriesDataQuery.self, SeriesPointBatch.self, UnlockReport.self, UserPreferencesFeedRequest.self,
    UserPreferencesUpdate.self, WorkoutEffortQuery.self, WorkoutEffortRelationChange.self,
    WorkoutEffortRelations.self,
    // Added in session 20.
    AppStorageBoundSetting.self, AppStorageList.self,
    // Added in session 21: verifiable clinical records.
    VerifiableRecordDeletion.self, VerifiableRecordImport.self, VerifiableRecordList.self, VerifiableRecordQuerySpec.self,
    // Added in session 22: the listing's selection.
    VerifiableRecordSelection.self,
]

/// libFuzzer target: protobuf decoding of every message type (the depth and string guard, then
/// protobuf-c, then the conversion to model values). Nothing may trap, and a message that
/// decodes must encode to bytes that decode again (what the broker sends back must be readable).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let type = messageTypes[Int(data[0]) % messageTypes.count]
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let message = try? type.init(wire: payload) else { return 0 }
    do {
        _ = try type.init(wire: message.wireBytes())
    } catch {
        fatalError("\(type) decoded but its re-encoding does not decode: \(error)")
    }
    return 0
}
