public import Foundation
import Glibc
public import HealthModel

/// Reads an app manifest file and checks it completely before anything reaches healthd:
/// JSON syntax, missing or mistyped keys, then `AppManifest.problems`. Unknown keys are
/// reported as warnings because a misspelt usage-description key would otherwise only show
/// up later, as an app's failed authorization request.
public enum ManifestLoader {
    public struct Loaded: Equatable, Sendable {
        public let manifest: AppManifest
        /// Each names the file and the key.
        public let warnings: [String]
    }

    /// The keys `AppManifest` reads.
    static let knownKeys: Set<String> = [
        "id", "displayName", "executable", "version", "entitlements", "network",
        AppManifest.readUsageKey, AppManifest.shareUsageKey, AppManifest.healthKitAccessKey,
    ]

    public static func load(path: String) throws(HealthCtlError) -> Loaded {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .manifestUnreadable(file: path, reason: Self.reason(error))
        }
        return try decode(data, file: path)
    }

    /// `file` names the source in every message.
    public static func decode(_ data: Data, file: String) throws(HealthCtlError) -> Loaded {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw HealthCtlError.manifestInvalid(file: file, problems: ["the manifest must be a JSON object ({ … })"])
            }
            object = parsed
        } catch let error as HealthCtlError {
            throw error
        } catch {
            throw .manifestInvalid(file: file, problems: ["not valid JSON: \(Self.reason(error))"])
        }

        // Report every missing or mistyped key at once, not just the first the decoder meets.
        var problems = keyProblems(in: object)
        if !problems.isEmpty { throw .manifestInvalid(file: file, problems: problems) }

        let manifest: AppManifest
        do {
            manifest = try JSONDecoder().decode(AppManifest.self, from: data)
        } catch {
            throw .manifestInvalid(file: file, problems: [describe(error)])
        }
        problems = manifest.problems
        if !problems.isEmpty { throw .manifestInvalid(file: file, problems: problems) }

        let warnings = object.keys.filter { !knownKeys.contains($0) }.sorted().map { key in
            "\(file): unknown key \"\(key)\" is ignored (known keys: \(knownKeys.sorted().joined(separator: ", ")))"
        }
        return Loaded(manifest: manifest, warnings: warnings)
    }

    static func keyProblems(in object: [String: Any]) -> [String] {
        var problems: [String] = []
        for key in ["id", "displayName", "executable", "version"] {
            switch object[key] {
            case nil: problems.append("missing required key \"\(key)\" (a string)")
            case is String: break
            default: problems.append("\"\(key)\" must be a string")
            }
        }
        for key in [AppManifest.readUsageKey, AppManifest.shareUsageKey] {
            if let value = object[key], !(value is String) { problems.append("\"\(key)\" must be a string") }
        }
        for key in ["entitlements", AppManifest.healthKitAccessKey] {
            if let value = object[key], !((value as? [Any])?.allSatisfy { $0 is String } ?? false) {
                problems.append("\"\(key)\" must be an array of strings")
            }
        }
        return problems
    }

    /// A decoding error in a sentence: which key, what was wrong. Used only if the key checks
    /// above let something through.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return reason(error) }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, _): return "missing required key \"\(key.stringValue)\""
        case let .typeMismatch(type, context): return "\"\(path(context))\" must be \(type == String.self ? "a string" : type == Bool.self ? "true or false" : "\(type)")"
        case let .valueNotFound(_, context): return "\"\(path(context))\" must not be null"
        case let .dataCorrupted(context): return context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// The useful part of a Foundation error: its underlying POSIX reason or JSON position.
    static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            switch error.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileReadNoPermission: return String(cString: strerror(EACCES))
            default: break
            }
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let detail = nsError.userInfo["NSDebugDescription"] as? String { return detail }
        if let code = POSIXErrorCode(rawValue: Int32(nsError.code)), nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
