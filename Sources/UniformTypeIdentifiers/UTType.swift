/// Apple's `UTType` (UniformTypeIdentifiers framework), which swift-corelibs-foundation lacks:
/// the part HealthKit code touches — `HKAttachment.contentType` and the `contentType:` argument
/// of `HKAttachmentStore.addAttachment` — so a ported `contentType: .pdf` compiles unchanged.
///
/// A type is its identifier. The well-known types (`UTType+Known.swift`) carry their preferred
/// filename extension, MIME type and parent; any other valid identifier makes a type with none
/// (`init(_:)`, `init(importedAs:)`). There is no system type registry on Linux: a type is
/// never declared dynamically (`dyn.` identifiers) and conformance follows only the known parents.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    public let identifier: String

    init(known identifier: String) { self.identifier = identifier }

    /// The type with `identifier`; nil unless it is a well-formed identifier (letters, digits,
    /// ".", "-" and "_", 1 to 255 bytes), as Apple's returns nil for a string it cannot use.
    public init?(_ identifier: String) {
        guard Self.isWellFormed(identifier) else { return nil }
        self.identifier = Self.canonical(identifier)
    }

    /// An imported type; here the same as `init(_:)` for a well-formed identifier. A malformed one
    /// falls back to `public.data`, as an undeclared import is "data" on Apple platforms.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self = UTType(identifier) ?? .data
    }

    /// An exported type; here the same as `init(importedAs:)`.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self = UTType(identifier) ?? .data
    }

    /// The known type whose preferred or alternative extension is `filenameExtension`, matched
    /// without regard to case ("PDF" is .pdf); nil for an extension no known type claims.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        let wanted = filenameExtension.lowercased()
        guard let known = Self.known.first(where: { $0.extensions.contains(wanted) }) else { return nil }
        self.init(known: known.identifier)
        guard conforms(to: supertype) else { return nil }
    }

    /// The known type with MIME type `mimeType` (case-insensitive); nil for any other.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        let wanted = mimeType.lowercased()
        guard let known = Self.known.first(where: { $0.mimeTypes.contains(wanted) }) else { return nil }
        self.init(known: known.identifier)
        guard conforms(to: supertype) else { return nil }
    }

    public var preferredFilenameExtension: String? { Self.entry(identifier)?.extensions.first }
    public var preferredMIMEType: String? { Self.entry(identifier)?.mimeTypes.first }
    public var isDeclared: Bool { Self.entry(identifier) != nil }
    public var isDynamic: Bool { identifier.hasPrefix("dyn.") }
    public var isPublicType: Bool { identifier.hasPrefix("public.") }
    public var description: String { identifier }

    /// The known parents of this type, nearest first, and their parents (not the type itself).
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var next = Self.entry(identifier)?.parents ?? []
        while let parent = next.popLast() {
            guard found.insert(UTType(known: parent)).inserted else { continue }
            next += Self.entry(parent)?.parents ?? []
        }
        return found
    }

    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    public func isSupertype(of type: UTType) -> Bool { type.conforms(to: self) }
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    static func isWellFormed(_ identifier: String) -> Bool {
        let bytes = identifier.utf8
        guard (1...255).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2E || byte == 0x2D || byte == 0x5F
        }
    }

    /// Identifiers compare without regard to case (Apple's do); a known one is spelled as known.
    static func canonical(_ identifier: String) -> String {
        known.first { $0.identifier.lowercased() == identifier.lowercased() }?.identifier ?? identifier
    }
}
