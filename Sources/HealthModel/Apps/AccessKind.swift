/// The two permissions an app holds per type: read, and share (HealthKit's word for write).
public enum AccessKind: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case read = 1
    case share = 2
    public var description: String { self == .read ? "read" : "share" }
}

public enum AuthorizationDecision: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    public var description: String {
        switch self {
        case .notDetermined: "not determined"
        case .denied: "denied"
        case .authorized: "authorized"
        }
    }
}
