// Command imwire-testee-go is the IMWire conformance testee on Go's protobuf runtime,
// google.golang.org/protobuf: package proto for the binary format, protojson for proto3 JSON.
//
// It speaks the conformance protocol (Schemas/imwire/conformance/v1/conformance.proto): it reads
// frames from standard input, each a 4-byte little-endian length and then a ConformanceRequest in the
// binary format, and answers each with one framed ConformanceResponse on standard output. End of
// input before a frame starts ends it with exit status 0.
//
// It is a plain use of the library: default options everywhere (but deterministic binary output), and no special cases (it never looks
// at test_name), so the suite's verdicts describe the runtime, not this program. The runtime has no
// tim-rest dialect and no IMWire validation profiles, so those cases are answered `skipped`. The
// runtime's errors carry no IMWire error code, so they are reported as `unclassified: <message>`.
//
// Build with ./build (see README.md); gen/ holds the generated code, made by ./generate.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	conformancev1 "github.com/imwire/imwire/gen/go/imwire/conformance/v1"
	imwirev1 "github.com/imwire/imwire/gen/go/imwire/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		frame, err := readFrame(in)
		if err == io.EOF {
			return // end of input between frames: done
		}
		if err == nil {
			err = writeFrame(out, serve(frame))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "imwire-testee-go:", err)
			os.Exit(1)
		}
	}
}

// readFrame reads one length-prefixed frame. It returns io.EOF only if the input ends before the
// frame starts.
func readFrame(r io.Reader) ([]byte, error) {
	var prefix [4]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, errors.New("end of input inside a length prefix")
		}
		return nil, err
	}
	frame := make([]byte, binary.LittleEndian.Uint32(prefix[:]))
	if _, err := io.ReadFull(r, frame); err != nil {
		return nil, fmt.Errorf("end of input inside a request frame: %v", err)
	}
	return frame, nil
}

// writeFrame writes a response with its length prefix and flushes it: the runner waits for it.
func writeFrame(w *bufio.Writer, response *conformancev1.ConformanceResponse) error {
	body, err := proto.Marshal(response)
	if err != nil {
		return err
	}
	var prefix [4]byte
	binary.LittleEndian.PutUint32(prefix[:], uint32(len(body)))
	w.Write(prefix[:])
	w.Write(body)
	return w.Flush()
}

// serve answers one request frame. A panic (a bug here or in the runtime) becomes a runtime_error
// rather than ending the session.
func serve(frame []byte) (response *conformancev1.ConformanceResponse) {
	defer func() {
		if r := recover(); r != nil {
			response = runtimeError(fmt.Sprintf("panic: %v", r))
		}
	}()
	request := &conformancev1.ConformanceRequest{}
	if err := proto.Unmarshal(frame, request); err != nil {
		return runtimeError("the request frame is not a ConformanceRequest: " + err.Error())
	}
	return handle(request)
}

// handle decodes the payload, then encodes the message in the requested format.
func handle(request *conformancev1.ConformanceRequest) *conformancev1.ConformanceResponse {
	output := request.GetRequestedOutputFormat()
	if request.GetTimRestPayload() != nil || output == conformancev1.WireFormat_WIRE_FORMAT_TIM_REST {
		return skipped("google.golang.org/protobuf has no tim-rest dialect")
	}
	if request.GetValidationProfile() != "" {
		return skipped("google.golang.org/protobuf has no IMWire validation profiles")
	}
	if output != conformancev1.WireFormat_WIRE_FORMAT_BINARY && output != conformancev1.WireFormat_WIRE_FORMAT_JSON {
		return runtimeError(fmt.Sprintf("unsupported requested_output_format %v", output))
	}

	message := &imwirev1.Message{}
	var err error
	switch payload := request.GetPayload().(type) {
	case *conformancev1.ConformanceRequest_BinaryPayload:
		// Default options. They include a nesting limit of protowire.DefaultRecursionLimit, 10,000
		// messages, far above the contract's 100 merger layers (about 300 levels), so none is set.
		err = proto.Unmarshal(payload.BinaryPayload, message)
	case *conformancev1.ConformanceRequest_JsonPayload:
		// Default options, but for the one the request carries: DiscardUnknown. protojson 1.28 has
		// no nesting limit: only Go's 1 GB goroutine stack bounds it (a fatal, unrecoverable error
		// when exceeded).
		options := protojson.UnmarshalOptions{DiscardUnknown: request.GetJsonIgnoreUnknownFields()}
		err = options.Unmarshal(payload.JsonPayload, message)
	default:
		return runtimeError("the request has no payload")
	}
	if err != nil {
		return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_ParseError{
			ParseError: validUTF8("unclassified: " + err.Error())}}
	}

	if output == conformancev1.WireFormat_WIRE_FORMAT_BINARY {
		// Deterministic, the runtime's documented option for stable output: map entries sorted by
		// key instead of Go's random map order, so the same input always gives the same bytes.
		out, err := proto.MarshalOptions{Deterministic: true}.Marshal(message)
		if err != nil {
			return serializeError(err)
		}
		return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_BinaryPayload{BinaryPayload: out}}
	}
	out, err := protojson.Marshal(message)
	if err != nil {
		return serializeError(err)
	}
	return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_JsonPayload{JsonPayload: out}}
}

func skipped(reason string) *conformancev1.ConformanceResponse {
	return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_Skipped{Skipped: reason}}
}

func serializeError(err error) *conformancev1.ConformanceResponse {
	return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_SerializeError{
		SerializeError: validUTF8("unclassified: " + err.Error())}}
}

func runtimeError(text string) *conformancev1.ConformanceResponse {
	return &conformancev1.ConformanceResponse{Result: &conformancev1.ConformanceResponse_RuntimeError{
		RuntimeError: validUTF8("imwire-testee-go: " + text)}}
}

// validUTF8 makes an error text valid UTF-8, as the protocol requires of every string (and as
// proto.Marshal of the response checks): the runtime's messages may quote the invalid input.
func validUTF8(text string) string {
	return strings.ToValidUTF8(text, "\uFFFD")
}
