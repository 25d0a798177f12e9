import Foundation
import GRDB
import HealthModel
import HealthStore
import Testing

@testable import HealthBroker

/// A data window on the read grant of clinical documents. Documents are read one by one, as the
/// user allows each (`PerObjectAuthorization.offeredTypes`); the type's grant only lets the app
/// offer them. A window the picks do not follow would be a rule that silently does nothing, so it
/// is refused when the grant is made, naming what to do instead (`GrantLimitsCheck`); a windowed
/// grant stored before the refusal existed hides every other app's document (`AuthorizationEngine`).
@Suite(.timeLimit(.minutes(10))) struct DocumentWindowTests {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let app = AppManifest(id: "org.example.records", displayName: "Records", executable: "/usr/bin/records", version: "1",
                                 readUsageDescription: "reads", shareUsageDescription: "writes")

    /// Read and share, each with and without a window: only read with a window is this rule's
    /// refusal (share with a window is refused for every type, by its own message).
    @Test(arguments: [AccessKind.read, .share], [true, false])
    func aWindowedReadGrantOfDocumentsIsRefusedNamingTheFix(_ access: AccessKind, _ windowed: Bool) {
        let grant = GrantDecision(Self.cda, access, .authorized, limits: GrantLimits(dataWindow: windowed ? 30 * 86_400 : nil))
        let refusal: HKError?
        do {
            try GrantLimitsCheck.check([grant], now: Date())
            refusal = nil
        } catch {
            refusal = error
        }
        if access == .read, windowed {
            #expect(refusal?.code == .errorInvalidArgument)
            #expect(refusal.map { "\($0)" }?.contains("documents are allowed one by one") == true, "\(String(describing: refusal))")
            #expect(refusal.map { "\($0)" }?.contains("healthctl object-grants") == true, "\(String(describing: refusal))")
        } else if windowed {
            #expect(refusal?.code == .errorInvalidArgument && refusal.map { "\($0)" }?.contains("documents") == false)
        } else {
            #expect(refusal == nil)
        }
    }

    /// The rule is the documents': a window on a sample type's read grant stays allowed.
    @Test func aWindowOnAnotherTypeIsStillAllowed() throws {
        let grant = GrantDecision(HKQuantityTypeIdentifier.heartRate.rawValue, .read, .authorized, limits: GrantLimits(dataWindow: 30 * 86_400))
        try GrantLimitsCheck.check([grant], now: Date())
    }

    /// A windowed grant already in the store (made before the refusal) shows no other app's
    /// document; without a window the user's picks show.
    @Test(arguments: [true, false])
    func aStoredWindowedGrantOfDocumentsHidesOtherAppsDocuments(_ windowed: Bool) throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try database.apps.install(Self.app)
        let grant = GrantDecision(Self.cda, .read, .authorized, limits: GrantLimits(dataWindow: windowed ? 30 * 86_400 : nil))
        try database.grants.apply(appID: Self.app.id, [grant], at: Date())
        let scope = try AuthorizationEngine(grants: database.grants).readScope(app: Self.app, type: Self.cda).scope
        #expect(scope == (windowed ? .ownSamples(appID: Self.app.id) : .ownAndGrantedObjects(appID: Self.app.id)))
    }
}
