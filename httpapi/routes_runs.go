package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
)

// Runs: generation of any size as durable jobs (package runs).

func (a *API) runRoutes() {
	a.handle("POST /runs", a.submitRun)
	a.handle("GET /runs", a.listRuns)
	a.handle("GET /runs/{id}", a.getRun)
	a.handle("DELETE /runs/{id}", a.cancelRun)
	a.handle("POST /runs/{id}/resume", a.resumeRun)
	a.handle("GET /runs/{id}/events", a.runEvents)
}

// runsService returns the runs service, or the error of a server that
// has none.
func (a *API) runsService() (*runs.Service, error) {
	if a.runs == nil {
		msg := a.noRuns
		if msg == "" {
			msg = "runs are not set up on this server"
		}
		return nil, contentgen.Errorf(contentgen.CodeUnavailable, "", "%s", msg)
	}
	return a.runs, nil
}

// runBody is the body of POST /runs: kind, count and batch_size, beside
// the parameters of the generate endpoint of the kind.
type runBody struct {
	Kind      string `json:"kind"`
	Count     *int64 `json:"count"`
	BatchSize int    `json:"batch_size"`
}

func decodeRun(raw []byte) (runs.Request, error) {
	var b runBody
	if err := jsonError(json.Unmarshal(raw, &b)); err != nil {
		return runs.Request{}, err
	}
	if b.Count == nil {
		return runs.Request{}, contentgen.Errorf(contentgen.CodeInvalidCount, "count", "count is required")
	}
	req := runs.Request{Kind: runs.Kind(b.Kind), Count: *b.Count, BatchSize: b.BatchSize}
	switch req.Kind {
	case runs.KindPosts:
		var p postsBody
		if err := jsonError(json.Unmarshal(raw, &p)); err != nil {
			return req, err
		}
		p.Count = nil
		pr, err := p.request()
		if err != nil {
			return req, err
		}
		req.Posts = &pr
	case runs.KindTerms:
		var t termsBody
		if err := jsonError(json.Unmarshal(raw, &t)); err != nil {
			return req, err
		}
		t.Count = nil
		tr := contentgen.TermsRequest(t)
		req.Terms = &tr
	case runs.KindUsers:
		var u usersBody
		if err := jsonError(json.Unmarshal(raw, &u)); err != nil {
			return req, err
		}
		u.Count = nil
		ur := contentgen.UsersRequest(u)
		req.Users = &ur
	case runs.KindComments:
		var c commentsBody
		if err := jsonError(json.Unmarshal(raw, &c)); err != nil {
			return req, err
		}
		cr, err := c.request()
		if err != nil {
			return req, err
		}
		req.Comments = &cr
	case "":
		return req, paramError("kind", "kind is required: posts, terms, users or comments")
	}
	return req, nil
}

func (a *API) submitRun(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	raw, err := readJSON(w, r, a.maxBody)
	if err != nil {
		return err
	}
	if raw == nil {
		return paramError("kind", "kind is required: posts, terms, users or comments")
	}
	req, err := decodeRun(raw)
	if err != nil {
		return err
	}
	run, err := s.Submit(r.Context(), req)
	if err != nil {
		return err
	}
	b, err := json.Marshal(struct {
		Success bool      `json:"success"`
		ID      string    `json:"id"`
		Run     RunRecord `json:"run"`
	}{true, run.ID, NewRunRecord(run)})
	if err != nil {
		return err
	}
	w.Header().Set("Location", r.URL.Path+"/"+run.ID)
	writeRaw(w, http.StatusAccepted, b)
	return nil
}

func (a *API) listRuns(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	list, err := s.List(r.Context(), 0)
	if err != nil {
		return err
	}
	out := make([]RunRecord, len(list))
	for i := range list {
		out[i] = NewRunRecord(&list[i])
	}
	return ok(w, struct {
		Success bool        `json:"success"`
		Runs    []RunRecord `json:"runs"`
	}{true, out})
}

func (a *API) getRun(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	run, err := s.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return ok(w, runAnswer{true, NewRunRecord(run)})
}

func (a *API) cancelRun(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	run, err := s.Cancel(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return ok(w, runAnswer{true, NewRunRecord(run)})
}

// resumeRun queues again the batches a cancelled or failed run has not
// done and answers 202 with the run, as submitRun does. A run that is
// queued, running or succeeded has nothing to resume: 409 naming its
// status.
func (a *API) resumeRun(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	run, err := s.Get(r.Context(), id)
	if err != nil {
		return err
	}
	if run.Status != runs.StatusCancelled && run.Status != runs.StatusFailed {
		return contentgen.Errorf(contentgen.CodeConflict, "id", "run %s is %s; only a cancelled or failed run can be resumed", run.ID, run.Status)
	}
	run, err = s.Resume(r.Context(), id)
	if err != nil {
		return err
	}
	b, err := json.Marshal(runAnswer{true, NewRunRecord(run)})
	if err != nil {
		return err
	}
	writeRaw(w, http.StatusAccepted, b)
	return nil
}

type runAnswer struct {
	Success bool      `json:"success"`
	Run     RunRecord `json:"run"`
}

// runEvents streams a run's progress as Server-Sent Events: a progress
// event with the run at once and whenever it changes, and a complete
// event with the run once it reaches a final status. An unknown run gets
// the JSON error answer; a failure after the stream started ends it with
// an error event.
func (a *API) runEvents(w http.ResponseWriter, r *http.Request) error {
	s, err := a.runsService()
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	if _, err := s.Get(r.Context(), id); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	st := a.newStream(w, cancel)
	defer st.close()
	err = s.Follow(ctx, id, func(run *runs.Run) error {
		typ := "progress"
		if run.Status.Final() {
			typ = "complete"
		}
		st.send(runEvent{typ, NewRunRecord(run)})
		return st.writeErr()
	})
	if werr := st.writeErr(); werr != nil {
		reason := "client went away"
		if errors.Is(werr, os.ErrDeadlineExceeded) {
			reason = "client stopped reading"
		}
		a.log.InfoContext(r.Context(), "httpapi: run event stream dropped", "path", r.URL.Path, "reason", reason)
		return nil
	}
	if err != nil && r.Context().Err() == nil {
		a.log.ErrorContext(r.Context(), "httpapi: following a run failed", "err", err)
		st.send(struct {
			Type    string          `json:"type"`
			Code    contentgen.Code `json:"code"`
			Message string          `json:"message"`
		}{"error", contentgen.CodeInternal, "Following the run failed."})
	}
	return nil
}

type runEvent struct {
	Type string    `json:"type"`
	Run  RunRecord `json:"run"`
}

// RunRecord is a run on the wire: the run of the /runs answers and
// events, and of the command line's --json.
type RunRecord struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Status      string `json:"status"`
	Done        int64  `json:"done"`
	Total       int64  `json:"total"`
	Batches     int64  `json:"batches"`
	BatchesDone int64  `json:"batches_done"`
	BatchSize   int    `json:"batch_size"`
	// Seed fixes what each batch makes (see runs.Run.Seed).
	Seed int64 `json:"seed"`
	// BatchTimeoutSeconds is how long a batch may take before it is run
	// again (runs.Run.BatchTimeout).
	BatchTimeoutSeconds int64             `json:"batch_timeout_seconds"`
	Errors              int64             `json:"errors"`
	LastError           string            `json:"last_error"`
	Warnings            []string          `json:"warnings"`
	CreatedAt           string            `json:"created_at"`
	StartedAt           *string           `json:"started_at"`
	EndedAt             *string           `json:"ended_at"`
	Workers             []RunWorkerRecord `json:"workers"`
}

// RunWorkerRecord is a worker of a RunRecord and what it made.
type RunWorkerRecord struct {
	Name    string `json:"name"`
	Batches int64  `json:"batches"`
	Items   int64  `json:"items"`
}

// NewRunRecord is r as RunRecord.
func NewRunRecord(r *runs.Run) RunRecord {
	opt := func(t time.Time) *string {
		if t.IsZero() {
			return nil
		}
		s := timestamp(t)
		return &s
	}
	rec := RunRecord{
		ID: r.ID, Kind: string(r.Kind), Status: string(r.Status), Done: r.Done, Total: r.Total,
		Batches: r.Batches, BatchesDone: r.BatchesDone, BatchSize: r.BatchSize,
		Seed: r.Seed, BatchTimeoutSeconds: int64(r.BatchTimeout / time.Second),
		Errors: r.Errors, LastError: r.LastError, Warnings: r.Warnings,
		CreatedAt: timestamp(r.CreatedAt), StartedAt: opt(r.StartedAt), EndedAt: opt(r.EndedAt),
		Workers: make([]RunWorkerRecord, len(r.Workers)),
	}
	if rec.Warnings == nil {
		rec.Warnings = []string{}
	}
	for i, w := range r.Workers {
		rec.Workers[i] = RunWorkerRecord(w)
	}
	return rec
}
