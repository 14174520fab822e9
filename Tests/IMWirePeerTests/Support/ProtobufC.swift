import IMWireProtobufC
import IMWireTestSupport

/// The protobuf-c peer (libprotobuf-c + protoc-c output for Schemas/), seen from Swift.
enum ProtobufC {
    enum Outcome: Equatable, CustomStringConvertible {
        case repacked([UInt8])
        case refused(Int32)

        var description: String {
            switch self {
            case .repacked(let bytes): "repacked \(hex(bytes))"
            case .refused(let code): "refused (code \(code))"
            }
        }
    }

    /// protobuf-c unpacks `bytes` as imwire.v1.Message and packs the result again.
    static func repack(_ bytes: [UInt8]) -> Outcome {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            imwire_pbc_repack_message(buffer.baseAddress, buffer.count, &out, &count)
        }
        guard status == IMWIRE_PBC_OK, let out else { return .refused(status) }
        defer { imwire_pbc_free(out) }
        return .repacked(Array(UnsafeBufferPointer(start: out, count: count)))
    }
}
