@testable import HealthBroker
import HealthModel
import HealthWire
import Testing

/// The storage bound's admission (`CallDispatcher`) refuses exactly the app methods that may add
/// to what an app stores (`MethodTable.storesData`): every method the access log records as a
/// write — save, workout association, route data and its finish, an effort relation, an
/// attachment's upload — and none that deletes, reads or asks. An unrelation is logged as a write
/// but removes a relation: an app at its bound may still undo one.
@Suite(.timeLimit(.minutes(10))) struct StorageAdmissionTests {
    @Test(arguments: HealthStoreMethod.allCases)
    func aMethodIsRefusedAtTheBoundExactlyWhenItMayStoreData(_ method: HealthStoreMethod) {
        let stores = MethodTable.storesData(method.rawValue)
        let loggedAsWrite = MethodTable.accessLogged[method.rawValue] == .write
        let uploadsAttachmentData = method == .appendAttachmentData
        #expect(stores == ((loggedAsWrite || uploadsAttachmentData) && method != .unrelateWorkoutEffort),
                "\(method.rawValue): stores \(stores), logged as \(String(describing: MethodTable.accessLogged[method.rawValue]))")
        if MethodTable.accessLogged[method.rawValue] == .delete { #expect(!stores, "a deletion gives room back") }
    }

    /// While locked, the journal bound's admission refuses every app method that may journal:
    /// whatever the access log records (its entry is journaled while locked), whatever stores,
    /// and the writes that journal without storing (deletions, unrelations, background delivery).
    /// Before session 21 only a write's own entry was refused, and calls that journal just their
    /// log entry (`RequestAuthorization`, `OfferDocuments`) were never refused.
    @Test(arguments: HealthStoreMethod.allCases)
    func everyMethodThatMayJournalIsRefusedAtTheJournalBound(_ method: HealthStoreMethod) {
        let journals = MethodTable.journalsWhileLocked(method.rawValue)
        let logged = MethodTable.accessLogged[method.rawValue] != nil
        let journaledWrite: Set<HealthStoreMethod> = [.enableBackgroundDelivery, .disableBackgroundDelivery,
                                                      .disableAllBackgroundDeliveries]
        #expect(journals == (logged || MethodTable.storesData(method.rawValue) || journaledWrite.contains(method)),
                "\(method.rawValue): journals \(journals), logged \(logged)")
    }

    @Test(arguments: HealthManagerMethod.allCases)
    func noManagerMethodCountsAgainstAnAppsJournal(_ method: HealthManagerMethod) {
        #expect(!MethodTable.journalsWhileLocked(method.rawValue))
    }

    /// Manager methods (imports, the user's entries) count against no app's bound.
    @Test(arguments: HealthManagerMethod.allCases)
    func noManagerMethodIsAnAppWrite(_ method: HealthManagerMethod) {
        #expect(!MethodTable.storesData(method.rawValue))
    }

    /// The refusals say what to do and carry the codes the SDK raises.
    @Test func refusalsCarryTheirHealthKitCodes() {
        let stored = StorageBoundExceeded(bound: .stored, used: 1 << 20, limit: 1 << 20)
        #expect(stored.status.code == .resourceExhausted)
        #expect(stored.status.asHKError.code == .errorDataSizeExceeded)
        #expect(stored.message.contains("healthctl apps storage"))
        let journaled = StorageBoundExceeded(bound: .journaled, used: 16 << 20, limit: 16 << 20)
        #expect(journaled.status.asHKError.code == .errorDatabaseInaccessible)
        #expect(journaled.message.contains("locked") && journaled.message.contains("16 MiB"))
        #expect(stored.refusal(method: HealthStoreMethod.save.rawValue).detail.hasSuffix("(storage bound reached)"))
    }
}
