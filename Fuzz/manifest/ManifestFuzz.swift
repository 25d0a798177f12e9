import Foundation
import HealthManagerCLI

/// libFuzzer target: app manifest parsing as `healthctl apps install` does it (JSON, then the
/// manifest's own checks). Nothing may trap; a refusal is a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? ManifestLoader.decode(Data(bytes: data, count: size), file: "fuzz.json")
    return 0
}
