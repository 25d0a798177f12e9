public import Foundation
import HealthWire

/// A sample type and a predicate, as HealthKit's `HKQueryDescriptor` (iOS 15): one part of a
/// query over several types, e.g. `HKObserverQuery(queryDescriptors:updateHandler:)`.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's. The archive holds the type and the predicate
/// in the wire's own form (the `TypePredicateSpec` an observer request carries), read back by the
/// same bounded parser healthd uses, so a predicate built from `HKQuery.predicateFor…` and
/// `NSCompoundPredicate`s of them survives as the same tree. A predicate that cannot be sent to
/// healthd at all (`NSPredicate(value:)`, `NSPredicate(block:)`, or one a `predicateFor…` call
/// refused) cannot be archived either: its archive says so and decodes as nil, rather than as a
/// descriptor without the predicate (which would match more than the app asked for).
public final class HKQueryDescriptor: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable; an NSPredicate is not marked Sendable but is never mutated here.
    public let sampleType: HKSampleType
    public let predicate: NSPredicate?

    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
        super.init()
    }

    /// Equal when they describe the same type and the same predicate: the same object, or two
    /// the SDK translates to the same tree (so a descriptor equals its archived copy).
    /// NSPredicate itself has no value equality on Linux.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQueryDescriptor, other.sampleType == sampleType else { return false }
        switch (predicate, other.predicate) {
        case (nil, nil): return true
        case let (mine?, theirs?):
            if mine === theirs { return true }
            guard let left = try? SamplePredicate(translating: mine),
                  let right = try? SamplePredicate(translating: theirs) else { return false }
            return left == right
        default: return false
        }
    }

    public override var hash: Int { sampleType.hash }

    /// Immutable, so a copy is the descriptor itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let descriptorKey = "descriptor"
    private static let unarchivableKey = "predicateNotArchivable"

    public func encode(with coder: NSCoder) {
        var tree: SamplePredicate?
        if let predicate {
            do {
                tree = try SamplePredicate(translating: predicate)
            } catch {
                coder.encode(NSString(string: error.message), forKey: Self.unarchivableKey)
            }
        }
        let spec = TypePredicateSpec(typeIdentifier: sampleType.identifier, predicate: tree)
        coder.encode(Data(spec.wireBytes()) as NSData, forKey: Self.descriptorKey)
    }

    /// Fails (nil) when the archive marks its predicate as not archivable, its bytes are missing,
    /// not data or refused by the parser, or the type is not a sample type HealthKit defines.
    public required convenience init?(coder: NSCoder) {
        guard !coder.containsValue(forKey: Self.unarchivableKey),
              let bytes = coder.decodeRequiredData(forKey: Self.descriptorKey),
              let spec = try? TypePredicateSpec(wire: Array(bytes)),
              let type = HKObjectType.type(forIdentifier: spec.typeIdentifier) as? HKSampleType else { return nil }
        self.init(sampleType: type, predicate: spec.predicate.map(SampleTreePredicate.init))
    }
}
