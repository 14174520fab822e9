// IMWire conformance testee on protobuf-java 3.21 (Debian libprotobuf-java) and protobuf-java-util's
// JsonFormat (Docs/conformance.md). Built by Tests/Conformance/testees/java/build; README.md beside it.
//
// Speaks the conformance protocol (Schemas/imwire/conformance/v1/conformance.proto) on stdin/stdout:
// a 4-byte little-endian length, then a ConformanceRequest in the protobuf binary format; one framed
// ConformanceResponse per request, flushed; exit 0 at end of input before a frame starts.
//
// A plain use of the library, like Tests/Conformance/testees/python/testee.py: binary input through the generated
// parser, JSON input through JsonFormat.parser(), binary output through toByteArray(), JSON output
// through JsonFormat.printer(), all with their defaults except the binary recursion limit (below).
// Nothing depends on the test name. tim-rest and validation profiles are answered `skipped`:
// protobuf-java has neither. Parse errors start with `unclassified: `, as the library never says which
// of the IMWire error codes applies.
package io.github.imwire.testee;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.github.imwire.conformance.v1.ConformanceRequest;
import io.github.imwire.conformance.v1.ConformanceResponse;
import io.github.imwire.conformance.v1.WireFormat;
import io.github.imwire.v1.Message;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

public final class Testee {
    /**
     * The binary parser's nesting limit, raised from CodedInputStream's default of 100 with
     * CodedInputStream.setRecursionLimit, the one documented option: Tencent's 100 merger layers are
     * Message → Elem → MergerElem → Message … three levels each, about 303 message levels with the
     * leaf elem (the Reliability article (IMWire.docc)); 320 admits them and still refuses 200 layers.
     */
    static final int BINARY_RECURSION_LIMIT = 320;

    /**
     * The JSON parser, with its defaults. protobuf-java-util 3.21's JsonFormat.Parser does have a
     * usingRecursionLimit(int), but it is package-private ("For testing only"; javap shows no public
     * modifier), so the default nesting limit of 100 stays: a 100-layer merger is refused as JSON
     * ("Hit recursion limit."). Reaching it by reflection would no longer be a plain use.
     */
    private static final JsonFormat.Parser JSON_PARSER = JsonFormat.parser();

    /** The same parser with the one option a request can carry: ignoring unknown fields. */
    private static final JsonFormat.Parser JSON_PARSER_IGNORING_UNKNOWN = JSON_PARSER.ignoringUnknownFields();

    /** The JSON printer, with its defaults (pretty-printed, lowerCamelCase names, defaults omitted). */
    private static final JsonFormat.Printer JSON_PRINTER = JsonFormat.printer();

    /** Error strings longer than this are cut (at a code point boundary). */
    private static final int MAX_ERROR_CHARS = 2000;

    private Testee() {}

    /** Answers one ConformanceRequest. */
    static ConformanceResponse handle(ConformanceRequest request) {
        ConformanceResponse.Builder response = ConformanceResponse.newBuilder();
        ConformanceRequest.PayloadCase payload = request.getPayloadCase();
        if (payload == ConformanceRequest.PayloadCase.TIM_REST_PAYLOAD
                || request.getRequestedOutputFormat() == WireFormat.WIRE_FORMAT_TIM_REST) {
            return response.setSkipped("protobuf-java has no tim-rest dialect").build();
        }
        if (!request.getValidationProfile().isEmpty()) {
            return response.setSkipped("protobuf-java has no IMWire validation profiles").build();
        }

        Message message;
        try {
            switch (payload) {
                case BINARY_PAYLOAD:
                    message = parseBinary(request.getBinaryPayload());
                    break;
                case JSON_PAYLOAD:
                    message = parseJson(request.getJsonPayload(), request.getJsonIgnoreUnknownFields());
                    break;
                default:
                    return response.setRuntimeError("the request has no payload").build();
            }
        } catch (CharacterCodingException error) {
            return response.setParseError(describe("unclassified: the JSON payload is not valid UTF-8: ", error)).build();
        } catch (InvalidProtocolBufferException | StackOverflowError error) {
            return response.setParseError(describe("unclassified: ", error)).build();
        }

        try {
            switch (request.getRequestedOutputFormat()) {
                case WIRE_FORMAT_BINARY:
                    return response.setBinaryPayload(ByteString.copyFrom(message.toByteArray())).build();
                case WIRE_FORMAT_JSON:
                    return response.setJsonPayload(encodeUtf8(JSON_PRINTER.print(message))).build();
                default:
                    return response
                            .setRuntimeError("unsupported requested_output_format " + request.getRequestedOutputFormatValue())
                            .build();
            }
        } catch (CharacterCodingException error) {
            return response
                    .setSerializeError(describe("unclassified: the printed JSON has a lone surrogate, it cannot be UTF-8: ", error))
                    .build();
        } catch (InvalidProtocolBufferException | RuntimeException | StackOverflowError error) {
            return response.setSerializeError(describe("unclassified: ", error)).build();
        }
    }

    /**
     * Parses binary input as Message.parseFrom(byte[]) does (AbstractParser.parsePartialFrom: parse,
     * then checkLastTagWas(0), so that a stray end-group tag is an error), only through a
     * CodedInputStream whose recursion limit is raised.
     */
    static Message parseBinary(ByteString bytes) throws InvalidProtocolBufferException {
        CodedInputStream input = bytes.newCodedInput();
        input.setRecursionLimit(BINARY_RECURSION_LIMIT);
        try {
            Message message = Message.parseFrom(input);
            input.checkLastTagWas(0);
            return message;
        } catch (InvalidProtocolBufferException error) {
            throw error;
        } catch (IOException error) {
            // Cannot happen on an in-memory stream; keep the signature honest.
            throw new InvalidProtocolBufferException(error);
        }
    }

    /**
     * Parses JSON input with JsonFormat. JsonFormat takes text, so the bytes are decoded as UTF-8
     * first — strictly, as Python's bytes.decode does: invalid UTF-8 is a parse error, not U+FFFD.
     */
    static Message parseJson(ByteString bytes, boolean ignoreUnknownFields)
            throws InvalidProtocolBufferException, CharacterCodingException {
        String text = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(bytes.asReadOnlyByteBuffer())
                .toString();
        Message.Builder builder = Message.newBuilder();
        (ignoreUnknownFields ? JSON_PARSER_IGNORING_UNKNOWN : JSON_PARSER).merge(text, builder);
        return builder.build();
    }

    /**
     * The printed JSON as UTF-8, strictly: a string holding a lone surrogate (JsonFormat accepts
     * "\ud800" escapes) cannot be encoded, and is a serialize error rather than a silent "?".
     */
    static ByteString encodeUtf8(String text) throws CharacterCodingException {
        ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .encode(CharBuffer.wrap(text));
        return ByteString.copyFrom(bytes);
    }

    /** `prefix` + the exception's class and message, as text that is valid UTF-8. */
    static String describe(String prefix, Throwable error) {
        String message = error.getMessage();
        String text = prefix + error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        return wellFormed(text);
    }

    /**
     * `text` with every lone surrogate replaced by U+FFFD and cut to MAX_ERROR_CHARS, so that it
     * encodes to valid UTF-8 (exception messages can quote input, and JSON input can hold "\udc00").
     */
    static String wellFormed(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_ERROR_CHARS + 1));
        for (int i = 0; i < text.length(); i++) {
            if (out.length() >= MAX_ERROR_CHARS) {
                out.append('…');
                break;
            }
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The protocol loop: until end of input, read a framed request and write a framed response. */
    static int serve(DataInputStream in, OutputStream out) throws IOException {
        byte[] prefix = new byte[4];
        while (true) {
            int first = in.read();
            if (first < 0) {
                return 0;
            }
            prefix[0] = (byte) first;
            try {
                in.readFully(prefix, 1, 3);
            } catch (EOFException error) {
                System.err.println("imwire-testee-java: end of input inside a length prefix");
                return 1;
            }
            long length = (prefix[0] & 0xFFL) | (prefix[1] & 0xFFL) << 8 | (prefix[2] & 0xFFL) << 16 | (prefix[3] & 0xFFL) << 24;
            if (length > Integer.MAX_VALUE - 8) {
                System.err.println("imwire-testee-java: request frame of " + length + " bytes is too large");
                return 1;
            }
            byte[] frame = new byte[(int) length];
            try {
                in.readFully(frame);
            } catch (EOFException error) {
                System.err.println("imwire-testee-java: end of input inside a request frame");
                return 1;
            }

            ConformanceResponse response;
            try {
                response = handle(ConformanceRequest.parseFrom(frame));
            } catch (InvalidProtocolBufferException error) {
                response = ConformanceResponse.newBuilder()
                        .setRuntimeError(describe("the request frame is not a ConformanceRequest: ", error))
                        .build();
            } catch (RuntimeException | StackOverflowError | LinkageError error) {
                // A bug here (or a jar missing from the classpath) must not end the session: report it
                // and go on.
                response = ConformanceResponse.newBuilder()
                        .setRuntimeError(describe("imwire-testee-java: ", error))
                        .build();
            }
            byte[] body = response.toByteArray();
            out.write(new byte[] {(byte) body.length, (byte) (body.length >>> 8), (byte) (body.length >>> 16), (byte) (body.length >>> 24)});
            out.write(body);
            out.flush();
        }
    }

    public static void main(String[] args) throws IOException {
        // The raw standard streams, not System.in/System.out (System.out is a PrintStream).
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        System.exit(serve(in, out));
    }
}
