import Foundation
import HealthIPC
import HealthWire
import Testing
import TestSupport

/// The per-app connection limit (DESIGN.md §5, issue 19.4), as an app sees it: sixteen
/// connections of one app work, the seventeenth is refused with RESOURCE_EXHAUSTED naming the
/// limit, and closing one connection makes room again. Written
/// against what a client observes (the status its call gets), not against how healthd counts.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConnectionLimitEndToEndTests {
    static let limit = 16
    let steps = "HKQuantityTypeIdentifierStepCount"

    /// A cheap unary call on `client`: nil when it succeeded, else its status.
    func call(_ client: RPCClient) async -> RPCStatus? {
        do {
            _ = try await client.unary(HealthStoreMethod.querySources.rawValue, TypePredicateSpec(typeIdentifier: steps).wireBytes())
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }

    @Test func theSeventeenthConnectionOfAnAppIsRefused() async throws {
        let broker = try BrokerProcess()
        // This test process, installed as an app, is identified by its peer credentials.
        let first = try await RawApp.install("org.test.many-connections", on: broker, grants: [("read", steps)])
        var clients = [first.client]
        defer { clients.forEach { $0.close() } }
        for _ in 1..<Self.limit { clients.append(try RPCClient.connect(path: broker.appSocket)) }
        for (index, client) in clients.enumerated() {
            let failure = await call(client)
            #expect(failure == nil, "connection \(index + 1) of \(Self.limit): \(String(describing: failure))")
        }

        let extra = try RPCClient.connect(path: broker.appSocket)
        defer { extra.close() }
        let refused = await call(extra)
        #expect(refused?.code == .resourceExhausted, "\(String(describing: refused))")
        #expect(refused?.message.contains("\(Self.limit) connections") == true, "\(String(describing: refused))")

        // Room again once one closes (healthd notices the close asynchronously: poll).
        clients.removeLast().close()
        var admitted: RPCStatus? = RPCStatus(.unknown, "not tried")
        let deadline = Date().addingTimeInterval(120)
        while admitted != nil, Date() < deadline {
            let again = try RPCClient.connect(path: broker.appSocket)
            admitted = await call(again)
            if admitted == nil { clients.append(again) } else { again.close() }
            if admitted != nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(admitted == nil, "a closed connection's place was never freed: \(String(describing: admitted))")
    }
}
