// Package queue counts n-queens jobs on a dynamic work queue: NATS
// JetStream (an embedded server, or any existing NATS deployment) hands
// the tasks of a job to workers that may come, go and die, keeps every
// result with a checksum, and gives the exact total once every task has
// one.
//
// The queue is in three parts, and this package holds what they share:
// the names of the streams, buckets and subjects, the records (Record,
// Failure, JobInfo, Seen), the tasks' grouping into units (Plan) and the
// rules of what a worker may write. It links no NATS at all.
//
//   - Package server: server.Serve starts an embedded nats-server with
//     JetStream file storage, on loopback unless a token or TLS client
//     certificates protect it, alone or as one of a JetStream cluster
//     (server.Config.ClusterListen, Routes) that keeps every stream and
//     bucket on three servers (Settings.Replicas) and goes on when one is
//     lost; with server.Config.Metrics it serves the queue's metrics
//     (server.MetricsHandler). Only it links nats-server.
//   - Package client: client.Connect reaches a server (several URLs: it
//     fails over between them); Client.Setup creates the streams, buckets
//     and consumers if they are absent, and every client that needs them
//     calls it. Client.Submit publishes the tasks of a plan as a job named
//     by queens.Plan.ID: submitting the same plan again adds no work.
//     Client.Status, Client.Wait and Client.Export read the results back,
//     check them and assemble the total (job.Assemble). Client.Jobs lists
//     the jobs, Client.Cancel takes one off the queue (its workers stop
//     counting it), Client.Requeue puts back its set-aside tasks or
//     resumes it.
//   - The worker (package worker): Work counts the tasks it is handed,
//     through a Client's connection, with this machine's kernels,
//     publishes each result, then acknowledges the task. Its parts, each
//     with one job, are described in its worker.go.
//
// # Tasks and units
//
// A job's task is a unit: a run of the plan's tasks, largest first, cut
// by their estimates (Plan, NewPlan). A message, a count and a record each
// cost round trips to the server, so a job whose tasks take a millisecond
// each (n = 17) would spend much of its time on the queue; units carry
// a tenth of a second of work or more, 37 of them at n = 17 by default
// (DefaultUnits), shrinking towards the end of the job so that no worker
// is left counting a large unit while the others wait. The grouping is
// part of the job's id (-uUNITS) and record (JobInfo.Units), so every
// reader cuts the same units. A unit's message lists its tasks, so a
// worker counts them without cutting the units (which needs the plan's
// estimates); its record names the tasks it counted (Record.Tasks) and
// readers refuse a record whose tasks are not its unit's. A job submitted
// with one task per unit has the plan's own task ids.
//
// # Streams, subjects and consumers
//
// Stream NQCOUNT_TASKS holds the tasks, one message per subject:
//
//	nqcount.task.JOB.ID     count task (unit) ID of job JOB
//	nqcount.verify.JOB.ID   count it again, on another worker (--verify)
//
// It keeps its messages after they are acknowledged (limits retention)
// and holds one message per subject: each publish expects the subject to
// be empty, so publishing a task twice, from a second submit or a worker
// that died between two steps, adds nothing, however much later. A
// worker handed a task it cannot count (its job does not fit in the
// worker's memory) passes it on without spending a delivery: it
// publishes the task afresh in its place, expecting the message it holds
// there, and the new message replaces it at the end of the queue. Tasks
// are published largest first (Plan.Order), as nqueens count orders
// them, so that a job does not end waiting on one big task.
//
// Workers report the memory their counts may take (Seen.Memory): verify
// tasks and recounts are addressed only to workers that can count them,
// and status counts a verification as stalled when no such worker is
// active. A worker whose counts keep failing (failLimit in a row), or
// that is outvoted on a task, sets itself aside (client.ErrSetAside) and its
// last report says why.
//
// Two durable pull consumers with explicit acknowledgement hand them out:
// "workers" (nqcount.task.>) and "verifiers" (nqcount.verify.>). A worker
// holding a task tells the server it is still on it (InProgress) every
// third of the acknowledgement wait, so tasks of any length are held as
// long as their worker lives; a worker that dies stops doing so and its
// tasks go to others after the wait. Redelivery is bounded (MaxDeliver)
// and backs off (BackOff doubles the wait each time); a task whose count
// fails is retried later (NakWithDelay), and at the last delivery it is
// set aside (Term) with its error recorded, for Status to show. A task
// whose worker died on every delivery is reported by the server's
// max-deliveries advisory, kept in stream NQCOUNT_EVENTS.
//
// Stream NQCOUNT_RESULTS keeps every record, never overwritten:
//
//	nqcount.result.JOB.ID   a Record of a count
//	nqcount.verified.JOB.ID a Record of a second count (verification)
//	nqcount.fail.JOB.ID     a Failure: a count that failed, and why
//
// Key-value bucket nqcount-jobs holds each job's JobInfo (what to count,
// and whether it was cancelled: workers watch it), and nqcount-workers each
// worker's last report (Seen), which expires when the worker stops
// reporting. A cancelled job's task messages are purged; Requeue
// publishes them again, and a Failure record marked Requeued on
// nqcount.fail.JOB.ID ends a task's failures before it.
//
// # Trust
//
// A Record carries the plan's hash, the algorithm version, the task, its
// count and nodes, the worker and program that counted it, and a SHA-256
// checksum of these (Record.Sum). The reader accepts a record only if its
// checksum holds and it belongs to the job's plan and to this program's
// algorithm version; others are refused and listed, and every text field a
// worker wrote is checked and escaped (fields.go). With verification, a
// chosen share of the tasks is counted a second time by another worker. A
// task with different accepted results is a conflict, settled by quorum
// (the client's quorum.go judges, the worker's asks recounts): a third
// worker recounts it, the result a majority of at
// least two workers agree on stands, and the outvoted workers are
// distrusted for the job (JobInfo.Distrusted) and their other results
// counted again. Until then Status reports the conflict and no total is
// given.
//
// # Outages
//
// Clients retry what says the queue cannot answer now (client.Transient) within
// their deadline (the client's outage.go); servers watch their cluster and say when a
// route or the quorum is lost or back, and start JetStream again after
// their store filled and space came back (the server's health.go).
package queue
