import Foundation
import HealthModel
import HealthWire
import TestSupport

extension ProbeWorld {
    /// CDA documents are consented per document (`PerObjectAuthorization.offeredTypes`): an app
    /// with the type's read permission reads another app's document only once the user allowed
    /// it, offered by the app's document query (`OfferDocuments`). `authorized` is where the probe
    /// must see hidden data, so there its app's query offers the hidden app's documents and the
    /// user allows them all (what a type-wide read grant showed before per-document consent). In
    /// the control world nothing is offered: there is no other app's document.
    static func allowOfferedDocuments(to app: String, in broker: BrokerProcess) async throws {
        let session = try ProbeSession(app, adminSocket: broker.adminSocket)
        let request = SampleQuerySpec(typeIdentifier: ProbeData.cda).wireBytes()
        let reply = try await session.run("unary \(HealthStoreMethod.offerDocuments.rawValue) \(ProbeTranscript.hex(request))")
        guard reply.first?.hasPrefix("reply") == true else { throw ProbeFailed(reason: "\(app)'s document offer failed: \(reply)") }
        try await session.finish()
        // The offer is filed after the reply (a hang guard, not a timing assertion).
        let deadline = Date().addingTimeInterval(deliveryTimeout)
        while Date() < deadline {
            if let (requestID, offered) = try await pendingOffer(of: app, in: broker) {
                let allowed = offered.isEmpty ? [] : ["--allow", offered.joined(separator: ",")]
                let result = try await broker.healthctl(["object-requests", "--answer", requestID] + allowed)
                guard result.status == 0 else { throw CommandFailed(result: result) }
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ProbeFailed(reason: "\(app)'s document offer never reached healthd")
    }

    /// `app`'s pending request in `healthctl object-requests`: its id and the UUIDs it offers.
    private static func pendingOffer(of app: String, in broker: BrokerProcess) async throws -> (String, [String])? {
        let listing = try await broker.healthctl(["object-requests"])
        var found: (String, [String])?
        var inApps = false
        for line in listing.stdout.split(separator: "\n") {
            if line.hasPrefix("Request ") {
                inApps = line.contains("(\(app))")
                if inApps, let id = line.dropFirst("Request ".count).split(separator: ":").first { found = (String(id), []) }
            } else if inApps, let uuid = line.split(separator: " ").first, UUID(uuidString: String(uuid)) != nil {
                found?.1.append(String(uuid))
            }
        }
        return found
    }
}
