import SmartHealthCard

/// libFuzzer target: a SMART Health Card file as healthd reads it at import
/// (`SmartHealthCardReader`: file forms, JWS, bounded inflate, payload), and the same bytes as
/// an issuer key file. Nothing may trap; a refusal is a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthCard(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? SmartHealthCardReader.records(file: bytes, issuerKeys: nil)
    _ = try? IssuerKeys(bytes)
    return 0
}
