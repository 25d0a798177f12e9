import COpenHealthProto
import HealthModel

/// Turns `Frame` values into length-prefixed bytes and frame bodies back into `Frame` values.
public enum FrameCodec {
    /// Bytes of the length prefix before each frame body; `WireLimits.maxFrameBytes` counts the body.
    public static let lengthPrefixBytes = 4

    /// The frame with its 4-byte length prefix: what protobuf-c packs for the `Frame` message
    /// (`FrameCodecTests` compares the two byte for byte), written by hand in one buffer.
    ///
    /// Every reply goes through here, a query's 500-sample batches included (about 48 KiB
    /// each): packing through protobuf-c copied the payload into an arena, then into the
    /// packed body, then into the prefixed frame — three copies and three allocations of the
    /// whole batch (issue 17, Benchmarks/README.md "Session 11"). Here the payload is copied
    /// once, into a buffer sized up front. Field by field in field-number order, with proto3's
    /// rules as protobuf-c applies them: a zero number or an empty string or payload is left
    /// out; a set status is written even when empty; a negative `healthkit_code` (int32) is
    /// sign-extended to a 10-byte varint.
    public static func encode(_ frame: Frame) -> [UInt8] {
        let method = WireText.packable(frame.method)
        var status: [UInt8]?
        if let value = frame.status {
            var fields: [UInt8] = []
            if value.code.rawValue != 0 { appendVarintField(1, UInt64(value.code.rawValue), to: &fields) }
            appendBytesField(2, WireText.packable(value.message), to: &fields)
            let healthKitCode = Int32(value.healthKitCode?.rawValue ?? 0)
            if healthKitCode != 0 { appendVarintField(3, UInt64(bitPattern: Int64(healthKitCode)), to: &fields) }
            status = fields
        }
        // Field keys and lengths take at most 1 + 10 bytes each; the rest is the fields' bytes.
        let capacity = 4 + 4 * 11 + method.count + frame.payload.count + (status.map { 11 + $0.count } ?? 0)
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out += [0, 0, 0, 0]  // the length prefix, filled in below
        if frame.callID != 0 { appendVarintField(1, frame.callID, to: &out) }
        appendBytesField(2, method, to: &out)
        appendVarintField(3, UInt64(frame.kind.rawValue), to: &out)  // every kind is non-zero
        appendBytesField(4, frame.payload, to: &out)
        if let status {
            out.append(5 << 3 | 2)
            ProtobufCodec.appendVarint(UInt64(status.count), to: &out)
            out += status
        }
        FrameReader.storePrefix(forBodyLength: out.count - 4, in: &out)
        return out
    }

    /// A varint field (wire type 0) of `number` (below 16, so its key is one byte).
    private static func appendVarintField(_ number: UInt8, _ value: UInt64, to out: inout [UInt8]) {
        out.append(number << 3)
        ProtobufCodec.appendVarint(value, to: &out)
    }

    /// A length-delimited field (wire type 2), left out when empty (proto3 strings and bytes).
    private static func appendBytesField(_ number: UInt8, _ bytes: [UInt8], to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        out.append(number << 3 | 2)
        ProtobufCodec.appendVarint(UInt64(bytes.count), to: &out)
        out += bytes
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
