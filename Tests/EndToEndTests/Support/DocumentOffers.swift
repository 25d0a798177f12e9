import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// CDA documents are read per document (`PerObjectAuthorization.offeredTypes`): an app with the
/// type's read permission reads another app's documents only once the user allowed them, offered
/// by its document query (`OfferDocuments`). Tests that need another app's documents as a large
/// answer (the stall tests) have the app offer them and the user allow every one — without this
/// their readers see no document at all, and a "stalled" answer is empty, testing nothing.
enum DocumentOffers {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static var offerRequest: [UInt8] { SampleQuerySpec(typeIdentifier: cda).wireBytes() }

    /// `app`, this test process connecting directly (`allowDirect`), offers the store's
    /// documents and the user allows all of them.
    static func allowAll(toDirectApp app: String, in broker: BrokerProcess) async throws {
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        _ = try await client.unary(HealthStoreMethod.offerDocuments.rawValue, offerRequest)
        try await answer(app, in: broker)
    }

    /// `app`, a sandboxed `leak-probe-client` session, offers them; the user allows all.
    static func allowAll(toProbeApp app: String, session: ProbeClientSession, in broker: BrokerProcess) async throws {
        let hex = offerRequest.map { String(format: "%02x", $0) }.joined()
        _ = try await session.run("unary \(HealthStoreMethod.offerDocuments.rawValue) \(hex)", timeout: 120)
        try await answer(app, in: broker)
    }

    /// Waits for `app`'s offer (filed after the reply) and allows every document in it.
    private static func answer(_ app: String, in broker: BrokerProcess) async throws {
        let offered = try await DocumentConsentEndToEndTests.offer(to: app, in: broker)
        let answer = try await broker.healthctl(["object-requests", "--answer", offered.requestID, "--allow",
                                                 offered.documents.map { $0.uuidString.lowercased() }.joined(separator: ",")])
        guard answer.status == 0 else { throw CommandFailed(result: answer) }
    }
}
