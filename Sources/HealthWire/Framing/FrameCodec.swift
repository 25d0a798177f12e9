import COpenHealthProto
import HealthModel

/// Turns `Frame` values into length-prefixed bytes and frame bodies back into `Frame` values.
public enum FrameCodec {
    /// The bytes to write to the socket: length prefix + serialized Frame.
    public static func encode(_ frame: Frame) -> [UInt8] {
        let arena = WireArena()
        var message = Openhealth__V1__Frame.initialized()
        message.call_id = frame.callID
        message.method = arena.string(frame.method)
        message.kind = Openhealth__V1__FrameKind(rawValue: UInt32(frame.kind.rawValue))
        message.payload = arena.bytes(frame.payload)
        if let status = frame.status {
            message.status = arena.message { (wire: inout Openhealth__V1__Status) in
                wire.code = status.code.rawValue
                wire.message = arena.string(status.message)
                wire.healthkit_code = Int32(status.healthKitCode?.rawValue ?? 0)
            }
        }
        let body = ProtobufCodec.encode(message)
        return FrameReader.prefix(forBodyLength: body.count) + body
    }

    /// Decodes one frame body (without its length prefix), as produced by `FrameReader`.
    public static func decode(_ body: [UInt8]) throws(WireDecodeError) -> Frame {
        do {
            return try ProtobufCodec.withDecoded(Openhealth__V1__Frame.self, from: body) { message in
                guard let kind = Frame.Kind(rawValue: Int32(bitPattern: message.kind.rawValue)) else {
                    throw WireDecodeError.invalidField("frame kind \(message.kind.rawValue) is not defined")
                }
                let method = WireRead.string(message.method)
                guard method.utf8.count <= WireLimits.maxMethodNameBytes else {
                    throw WireDecodeError.invalidField("method name longer than \(WireLimits.maxMethodNameBytes) bytes")
                }
                var status: RPCStatus?
                if let wire = message.status?.pointee {
                    status = RPCStatus(
                        StatusCode(rawValue: wire.code) ?? .unknown,
                        WireRead.string(wire.message),
                        healthKitCode: wire.healthkit_code == 0 ? nil : HKError.Code(rawValue: Int(wire.healthkit_code))
                    )
                }
                return Frame(callID: message.call_id, method: method, kind: kind,
                             payload: WireRead.bytes(message.payload), status: status)
            }
        } catch let error as WireDecodeError {
            throw error
        } catch {
            throw .malformed(message: "openhealth.v1.Frame")
        }
    }
}
