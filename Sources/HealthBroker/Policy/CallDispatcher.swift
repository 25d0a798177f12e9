import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Logging

/// Looks a call up in the caller's table, runs it, and turns every outcome into exactly one
/// status on the wire. Decoding errors, HealthKit errors, cancellation and unexpected failures
/// each map to their gRPC code; unexpected failures are logged without payloads and reported
/// to the peer as INTERNAL with no detail.
struct CallDispatcher: Sendable {
    let context: BrokerContext
    let table: [String: MethodTable.Handler]
    let caller: Caller

    func dispatch(_ call: IncomingCall) async {
        guard let handler = table[call.method] else {
            call.responder.fail(RPCStatus(.unimplemented, "method \(call.method.prefix(128)) is not served on this socket"), streaming: false)
            return
        }
        switch handler {
        case let .unary(run):
            do {
                let reply = try await run(context, caller, call.payload)
                if let descriptor = reply.descriptor {
                    call.responder.respond(reply.payload, passing: descriptor)
                    close(descriptor)
                } else {
                    call.responder.respond(reply.payload)
                }
            } catch {
                call.responder.fail(status(for: error, method: call.method), streaming: false)
            }
        case let .stream(run):
            do {
                try await run(context, caller, call.payload, call.responder)
                call.responder.finish()
            } catch {
                call.responder.fail(status(for: error, method: call.method), streaming: true)
            }
        }
    }

    private func status(for error: any Error, method: String) -> RPCStatus {
        switch error {
        case let error as HKError:
            return RPCStatus(error)
        case let error as WireDecodeError:
            return RPCStatus(.invalidArgument, "bad request: \(error)", healthKitCode: .errorInvalidArgument)
        case is CancellationError:
            return RPCStatus(.cancelled, "cancelled")
        default:
            context.logger.error("call failed", metadata: ["method": "\(method)", "error": "\(type(of: error))"])
            return RPCStatus(.internal, "internal error in healthd; see its log", healthKitCode: .errorDatabaseInaccessible)
        }
    }
}
