/// One unit on the wire: a call id, the method (on requests), what kind of frame it is, the
/// serialized message, and a status (on responses and stream ends). See proto/openhealth/v1/frame.proto.
public struct Frame: Equatable, Sendable {
    public enum Kind: Int32, Sendable {
        case request = 1
        case response = 2
        case streamMessage = 3
        case endOfStream = 4
        case cancel = 5
    }

    public var callID: UInt64
    public var method: String
    public var kind: Kind
    public var payload: [UInt8]
    public var status: RPCStatus?

    public init(callID: UInt64, method: String = "", kind: Kind, payload: [UInt8] = [], status: RPCStatus? = nil) {
        self.callID = callID
        self.method = method
        self.kind = kind
        self.payload = payload
        self.status = status
    }

    public static func request(_ callID: UInt64, _ method: String, _ payload: [UInt8]) -> Frame {
        Frame(callID: callID, method: method, kind: .request, payload: payload)
    }

    public static func response(_ callID: UInt64, _ payload: [UInt8]) -> Frame {
        Frame(callID: callID, kind: .response, payload: payload, status: .ok)
    }

    public static func failure(_ callID: UInt64, _ status: RPCStatus, streaming: Bool) -> Frame {
        Frame(callID: callID, kind: streaming ? .endOfStream : .response, status: status)
    }
}
