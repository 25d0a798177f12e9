import Foundation
import Testing

/// The two ways the coding suites archive: Apple's snippet (archive requiring secure coding,
/// unarchive as the class), and an archive holding exactly the fields a test writes — a tampered
/// or truncated file, field by field, decoded through the class's own `init?(coder:)`.
enum SecureArchive {
    static func roundTrip<T: NSObject & NSSecureCoding>(_ object: T) throws -> T {
        try roundTrip(object, as: T.self)
    }

    /// Apple's snippet unarchiving as a class other than the object's own (a superclass an app's
    /// cache names, such as `HKSample`).
    static func roundTrip<T: NSObject & NSSecureCoding>(_ object: NSObject, as cls: T.Type) throws -> T {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: cls, from: archived))
    }

    static func decoded<T: NSObject & NSSecureCoding>(_: T.Type, _ fill: (NSKeyedArchiver) -> Void) throws -> T? {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        fill(archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        return T(coder: unarchiver)
    }

    /// An object's own archive with one field replaced (or removed, for nil): encodes the object
    /// into a recorder, then writes every field but `key`, and `replacement` under `key`.
    static func tampered<T: NSObject & NSSecureCoding>(_ object: T, _ key: String, _ replacement: NSObject?) throws -> T? {
        let fields = FieldRecorder.fields(of: object)
        #expect(fields[key] != nil || replacement != nil, "no field \(key) in \(T.self)'s archive")
        return try decoded(T.self) { archiver in
            FieldRecorder.write(fields, to: archiver, except: key)
            if let replacement { archiver.encode(replacement, forKey: key) }
        }
    }
}

/// Records the fields an object's `encode(with:)` writes, so a test can rewrite one of them:
/// objects (strings, numbers, data — all the SDK's classes write, `NSCoder+ArchiveFields`) and
/// the plain integers `HKSourceRevision` writes for the system version, each replayed the way it
/// was written.
final class FieldRecorder: NSCoder {
    enum Field {
        case object(NSObject)
        case integer(Int)
    }

    private(set) var recorded: [String: Field] = [:]

    static func fields(of object: NSCoding) -> [String: Field] {
        let recorder = FieldRecorder()
        object.encode(with: recorder)
        return recorder.recorded
    }

    static func write(_ fields: [String: Field], to archiver: NSKeyedArchiver, except skipped: String? = nil) {
        for (key, field) in fields where key != skipped {
            switch field {
            case let .object(object): archiver.encode(object, forKey: key)
            case let .integer(value): archiver.encode(value, forKey: key)
            }
        }
    }

    override var allowsKeyedCoding: Bool { true }
    override var requiresSecureCoding: Bool { true }

    override func encode(_ object: Any?, forKey key: String) {
        if let object = object as? NSObject { recorded[key] = .object(object) }
    }

    override func encode(_ value: Int, forKey key: String) { recorded[key] = .integer(value) }
}
