/*
** workers.c - a pool of worker threads, each with its own search context,
** that run the caller's jobs: POSIX threads, or Win32 threads with
** CRITICAL_SECTION and CONDITION_VARIABLE (Vista and later) on Windows.
** One mutex guards the queue, the finished list and every job's state; a
** job's own data belongs to the worker while it runs and to the caller
** otherwise (the mutex hands it over, which orders the memory accesses).
*/
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L     /* pthreads and sysconf under -std=c99 */
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE            /* _SC_NPROCESSORS_ONLN beside _POSIX_C_SOURCE */
#endif
#if defined(_WIN32)
#if !defined(_WIN32_WINNT) || _WIN32_WINNT < 0x0600
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0600         /* condition variables */
#endif
#include <windows.h>
#else
#include <pthread.h>
#include <unistd.h>
#endif
#include <string.h>
#include "core.h"

/* ---------------------------------------------------------------------- */
/* The portability shim: a mutex, a condition variable, a thread           */
/* ---------------------------------------------------------------------- */

#if defined(_WIN32)
typedef CRITICAL_SECTION mutex_t;
typedef CONDITION_VARIABLE cond_t;
typedef HANDLE thread_t;
static int mutex_init(mutex_t *m) { InitializeCriticalSection(m); return 0; }
static void mutex_free(mutex_t *m) { DeleteCriticalSection(m); }
static void lock(mutex_t *m) { EnterCriticalSection(m); }
static void unlock(mutex_t *m) { LeaveCriticalSection(m); }
static int cond_init(cond_t *c) { InitializeConditionVariable(c); return 0; }
static void cond_free(cond_t *c) { (void)c; }
static void cond_wait(cond_t *c, mutex_t *m) { SleepConditionVariableCS(c, m, INFINITE); }
static void cond_signal(cond_t *c) { WakeConditionVariable(c); }
static void cond_broadcast(cond_t *c) { WakeAllConditionVariable(c); }
#else
typedef pthread_mutex_t mutex_t;
typedef pthread_cond_t cond_t;
typedef pthread_t thread_t;
static int mutex_init(mutex_t *m) { return pthread_mutex_init(m, NULL); }
static void mutex_free(mutex_t *m) { pthread_mutex_destroy(m); }
static void lock(mutex_t *m) { pthread_mutex_lock(m); }
static void unlock(mutex_t *m) { pthread_mutex_unlock(m); }
static int cond_init(cond_t *c) { return pthread_cond_init(c, NULL); }
static void cond_free(cond_t *c) { pthread_cond_destroy(c); }
static void cond_wait(cond_t *c, mutex_t *m) { pthread_cond_wait(c, m); }
static void cond_signal(cond_t *c) { pthread_cond_signal(c); }
static void cond_broadcast(cond_t *c) { pthread_cond_broadcast(c); }
#endif

/* ---------------------------------------------------------------------- */
/* The pool                                                                 */
/* ---------------------------------------------------------------------- */

/* A thread: it runs fn(arg, i). */
typedef struct trun {
  void (*fn)(void *, int);
  void *arg;
  int i;
  thread_t t;
} trun;

typedef struct worker {
  astar_workers *pool;
  astar_search *s;
  trun run;
  int started;
} worker;

struct astar_workers {
  astar_mem mem;
  astar_work_fn fn;
  void *ud;
  mutex_t mu;
  cond_t work;            /* a job was queued, or the pool is closing */
  cond_t done;            /* a job finished */
  astar_job *head, *tail; /* queued, oldest first */
  astar_job *fhead, *ftail;  /* finished, not yet collected, oldest first */
  size_t running;         /* jobs a worker holds */
  int closing;
  int nthreads;
  worker *w;
  astar_search *caller;   /* the context of astar_workers_help */
};

static void push(astar_job **head, astar_job **tail, astar_job *j) {
  j->next = NULL;
  if (*tail != NULL) (*tail)->next = j;
  else *head = j;
  *tail = j;
}

static astar_job *pop(astar_job **head, astar_job **tail) {
  astar_job *j = *head;
  if (j == NULL) return NULL;
  *head = j->next;
  if (*head == NULL) *tail = NULL;
  j->next = NULL;
  return j;
}

/* Unlinks j from the list (head, tail); 1 if it was there. */
static int unlink_job(astar_job **head, astar_job **tail, astar_job *j) {
  astar_job *p = NULL, *c;
  for (c = *head; c != NULL && c != j; c = c->next) p = c;
  if (c == NULL) return 0;
  if (p != NULL) p->next = c->next;
  else *head = c->next;
  if (*tail == c) *tail = p;
  c->next = NULL;
  return 1;
}

/* Runs j (popped, the mutex held) with context s: the mutex is let go
** meanwhile and held again on return. */
static void run_one(astar_workers *p, astar_job *j, astar_search *s) {
  j->state = ASTAR_JOB_RUNNING;
  p->running++;
  unlock(&p->mu);
  p->fn(p->ud, j, s, p);                 /* the job's data is the runner's now */
  lock(&p->mu);
  p->running--;
  j->state = ASTAR_JOB_DONE;
  push(&p->fhead, &p->ftail, j);
  cond_broadcast(&p->done);
}

static void work(worker *me) {
  astar_workers *p = me->pool;
  lock(&p->mu);
  for (;;) {
    while (p->head == NULL && !p->closing) cond_wait(&p->work, &p->mu);
    if (p->closing) break;
    run_one(p, pop(&p->head, &p->tail), me->s);
  }
  unlock(&p->mu);
}

long astar_workers_help(astar_workers *p, const astar_job *until) {
  long n = 0;
  lock(&p->mu);
  while (!p->closing && p->head != NULL &&
         (until == NULL ? n == 0 : until->state == ASTAR_JOB_QUEUED ||
                                   until->state == ASTAR_JOB_RUNNING)) {
    run_one(p, pop(&p->head, &p->tail), p->caller);
    n++;
  }
  unlock(&p->mu);
  return n;
}

#if defined(_WIN32)
static DWORD WINAPI thread_main(LPVOID arg) {
  trun *r = (trun *)arg;
  r->fn(r->arg, r->i);
  return 0;
}
static int spawn(trun *r) {
  r->t = CreateThread(NULL, 0, thread_main, r, 0, NULL);
  return r->t != NULL ? 0 : -1;
}
static void join(trun *r) {
  WaitForSingleObject(r->t, INFINITE);
  CloseHandle(r->t);
}
#else
static void *thread_main(void *arg) {
  trun *r = (trun *)arg;
  r->fn(r->arg, r->i);
  return NULL;
}
static int spawn(trun *r) { return pthread_create(&r->t, NULL, thread_main, r); }
static void join(trun *r) { pthread_join(r->t, NULL); }
#endif

static void work_main(void *arg, int i) {
  (void)i;
  work((worker *)arg);
}

void astar__parallel(int n, void (*fn)(void *, int), void *arg) {
  trun r[ASTAR_WORKERS_MAX];
  int i, started[ASTAR_WORKERS_MAX];
  if (n > ASTAR_WORKERS_MAX) n = ASTAR_WORKERS_MAX;
  for (i = 1; i < n; i++) {
    r[i].fn = fn;
    r[i].arg = arg;
    r[i].i = i;
    started[i] = spawn(&r[i]) == 0;
  }
  fn(arg, 0);
  for (i = 1; i < n; i++) {
    if (started[i]) join(&r[i]);
    else fn(arg, i);                     /* no thread: its share on this one */
  }
}

int astar_workers_cpus(void) {
  long n;
#if defined(_WIN32)
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  n = (long)si.dwNumberOfProcessors;
#elif defined(_SC_NPROCESSORS_ONLN)
  n = sysconf(_SC_NPROCESSORS_ONLN);
#else
  n = 1;
#endif
  if (n < 1) n = 1;
  return n > ASTAR_WORKERS_MAX ? ASTAR_WORKERS_MAX : (int)n;
}

/* Stops and joins the started threads, then frees everything. */
static void destroy(astar_workers *p, int sync) {
  int i;
  astar_job *j;
  if (sync) {
    lock(&p->mu);
    p->closing = 1;
    for (j = p->head; j != NULL; j = j->next) j->state = ASTAR_JOB_CANCELLED;
    p->head = p->tail = NULL;           /* queued jobs are the caller's again */
    cond_broadcast(&p->work);
    unlock(&p->mu);
  }
  for (i = 0; i < p->nthreads; i++)
    if (p->w[i].started) join(&p->w[i].run);
  for (i = 0; i < p->nthreads; i++) astar_search_free(p->w[i].s);
  astar_search_free(p->caller);
  if (sync) {
    cond_free(&p->done);
    cond_free(&p->work);
    mutex_free(&p->mu);
  }
  astar__free(&p->mem, p->w, (size_t)(p->nthreads > 0 ? p->nthreads : 1) * sizeof(worker));
  {
    astar_mem m = p->mem;
    astar__free(&m, p, sizeof *p);
  }
}

int astar_workers_new(astar_workers **out, int threads, astar_work_fn fn, void *ud,
                      astar_alloc alloc, void *aud) {
  astar_mem m;
  astar_workers *p;
  int i, rc = 0;
  *out = NULL;
  if (threads < 0 || threads > ASTAR_WORKERS_MAX || fn == NULL) return ASTAR_EINVAL;
  m.fn = alloc; m.ud = aud; m.allocs = 0;
  p = (astar_workers *)astar__alloc(&m, sizeof *p);
  if (p == NULL) return ASTAR_ENOMEM;
  memset(p, 0, sizeof *p);
  p->mem = m;
  p->fn = fn;
  p->ud = ud;
  p->w = (worker *)astar__alloc(&p->mem, (size_t)(threads > 0 ? threads : 1) * sizeof(worker));
  if (p->w == NULL) {
    astar__free(&p->mem, p, sizeof *p);
    return ASTAR_ENOMEM;
  }
  p->nthreads = threads;
  for (i = 0; i < threads; i++) {
    p->w[i].pool = p;
    p->w[i].s = NULL;
    p->w[i].started = 0;
  }
  for (i = 0; i < threads && rc == 0; i++)
    rc = astar_search_new(&p->w[i].s, alloc, aud);
  if (rc == 0) rc = astar_search_new(&p->caller, alloc, aud);
  if (rc != 0) {
    destroy(p, 0);
    return rc;
  }
  if (mutex_init(&p->mu) != 0) { destroy(p, 0); return ASTAR_ENOMEM; }
  if (cond_init(&p->work) != 0) {
    mutex_free(&p->mu);
    destroy(p, 0);
    return ASTAR_ENOMEM;
  }
  if (cond_init(&p->done) != 0) {
    cond_free(&p->work);
    mutex_free(&p->mu);
    destroy(p, 0);
    return ASTAR_ENOMEM;
  }
  for (i = 0; i < threads; i++) {
    p->w[i].run.fn = work_main;
    p->w[i].run.arg = &p->w[i];
    p->w[i].run.i = i;
    if (spawn(&p->w[i].run) != 0) {
      destroy(p, 1);
      return ASTAR_ENOMEM;
    }
    p->w[i].started = 1;
  }
  *out = p;
  return 0;
}

int astar_workers_threads(const astar_workers *p) { return p->nthreads; }

void astar_workers_submit(astar_workers *p, astar_job *j) {
  lock(&p->mu);
  j->state = ASTAR_JOB_QUEUED;
  j->cancel = 0;
  push(&p->head, &p->tail, j);
  cond_signal(&p->work);
  unlock(&p->mu);
}

astar_job *astar_workers_collect(astar_workers *p, int wait) {
  astar_job *j;
  lock(&p->mu);
  while (wait && p->fhead == NULL && (p->head != NULL || p->running > 0))
    cond_wait(&p->done, &p->mu);
  j = pop(&p->fhead, &p->ftail);
  if (j != NULL) j->state = ASTAR_JOB_COLLECTED;
  unlock(&p->mu);
  return j;
}

int astar_workers_take(astar_workers *p, astar_job *j, int wait) {
  int st;
  lock(&p->mu);
  while (wait && (j->state == ASTAR_JOB_QUEUED || j->state == ASTAR_JOB_RUNNING))
    cond_wait(&p->done, &p->mu);
  st = j->state;
  if (st == ASTAR_JOB_DONE) {
    unlink_job(&p->fhead, &p->ftail, j);
    j->state = ASTAR_JOB_COLLECTED;
  }
  unlock(&p->mu);
  return st;
}

int astar_workers_cancel(astar_workers *p, astar_job *j) {
  int st;
  lock(&p->mu);
  st = j->state;
  if (st == ASTAR_JOB_QUEUED) {
    unlink_job(&p->head, &p->tail, j);
    j->state = ASTAR_JOB_CANCELLED;
  } else if (st == ASTAR_JOB_RUNNING) {
    j->cancel = 1;
  } else if (st == ASTAR_JOB_DONE) {
    unlink_job(&p->fhead, &p->ftail, j);
    j->state = ASTAR_JOB_CANCELLED;
  }
  unlock(&p->mu);
  return st;
}

int astar_workers_peek(astar_workers *p, const astar_job *j) {
  int st;
  lock(&p->mu);
  st = j->state;
  unlock(&p->mu);
  return st;
}

int astar_workers_cancelled(astar_workers *p, const astar_job *j) {
  int c;
  lock(&p->mu);
  c = j->cancel || p->closing;
  unlock(&p->mu);
  return c;
}

void astar_workers_state(astar_workers *p, size_t *queued, size_t *running, size_t *done) {
  astar_job *j;
  size_t q = 0, d = 0;
  lock(&p->mu);
  for (j = p->head; j != NULL; j = j->next) q++;
  for (j = p->fhead; j != NULL; j = j->next) d++;
  if (running != NULL) *running = p->running;
  unlock(&p->mu);
  if (queued != NULL) *queued = q;
  if (done != NULL) *done = d;
}

void astar_workers_free(astar_workers *p) {
  if (p != NULL) destroy(p, 1);
}
