# The nqueens command in a minimal image: one static binary (no cgo),
# for the queue's server and workers (scripts/k8s-queue.yaml) and the
# shards of scripts/k8s-indexed-job.yaml.
#
#   docker build -t ghcr.io/nqcount/nqueens:latest .
#   docker run --rm ghcr.io/nqcount/nqueens:latest count 12
#
#   docker build --build-arg VERSION=$(git describe --tags --always) -t ghcr.io/nqcount/nqueens:latest .
#
# The assembly kernels are chosen at run time from the CPU's features, so
# one amd64 image serves every x86-64 machine. The build context keeps
# .git (see .dockerignore), so that the binary records the commit it was
# built from: nqueens --version prints it, and every result record of a
# queue names the program that counted it.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=container
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=auto \
	-ldflags "-s -w -X github.com/nqcount/nqcount/internal/cli.version=${VERSION}" \
	-o /out/nqueens ./cmd/nqueens

# busybox gives the sh the manifests' shell lines use; the binary needs
# nothing from it.
FROM busybox:1.37
COPY --from=build /out/nqueens /usr/local/bin/nqueens
USER 65532:65532
ENTRYPOINT ["nqueens"]
