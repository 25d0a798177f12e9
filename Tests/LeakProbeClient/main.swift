// leak-probe-client: the probing app of LeakProbeTests. It runs under health-sandbox, talks to
// healthd with HealthIPC's RPCClient directly (no SDK: nothing may tidy up, retry or reorder
// what the broker sends), and prints the raw bytes of every response so two worlds can be
// compared byte for byte.
//
// Script on stdin, one call per line:   unary|stream METHOD PAYLOAD-HEX   (empty payload: "-")
// Output, per call:
//   call N METHOD
//   reply HEX            a unary call's response payload
//   item HEX             each message of a stream, in order
//   end                  a stream's clean end
//   status CODE HK MESSAGE-HEX   the call failed (gRPC code, HealthKit code or -1, message bytes)
import Foundation
import HealthIPC
import HealthWire

func hex(_ bytes: some Sequence<UInt8>) -> String {
    let text = bytes.map { String(format: "%02x", $0) }.joined()
    return text.isEmpty ? "-" : text
}

func bytes(fromHex text: Substring) -> [UInt8]? {
    if text == "-" { return [] }
    guard text.count.isMultiple(of: 2) else { return nil }
    var result: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
        result.append(byte)
        index = next
    }
    return result
}

func statusLine(_ error: any Error) -> String {
    guard let status = error as? RPCStatus else { return "status -1 -1 \(hex(Array("\(type(of: error))".utf8)))" }
    return "status \(status.code.rawValue) \(status.healthKitCode.map { String($0.rawValue) } ?? "-1") \(hex(Array(status.message.utf8)))"
}

guard let descriptorText = ProcessInfo.processInfo.environment[LaunchEnvironment.socketDescriptorVariable],
      let descriptor = Int32(descriptorText) else {
    FileHandle.standardError.write(Data("leak-probe-client: run me under health-sandbox (\(LaunchEnvironment.socketDescriptorVariable) unset)\n".utf8))
    exit(2)
}
let client = RPCClient(fd: descriptor)
var number = 0
while let line = readLine() {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count == 3, fields[0] == "unary" || fields[0] == "stream", let payload = bytes(fromHex: fields[2]) else {
        FileHandle.standardError.write(Data("leak-probe-client: bad script line \(number + 1)\n".utf8))
        exit(2)
    }
    number += 1
    let method = String(fields[1])
    print("call \(number) \(method)")
    if fields[0] == "unary" {
        do {
            print("reply \(hex(try await client.unary(method, payload)))")
        } catch {
            print(statusLine(error))
        }
    } else {
        do {
            for try await item in client.serverStream(method, payload) { print("item \(hex(item))") }
            print("end")
        } catch {
            print(statusLine(error))
        }
    }
}
client.close()
