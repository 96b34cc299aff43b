/* conns.c - a deadline for a whole request (slowloris): libmicrohttpd's
 * timeout is for silence, so a client that sends a byte of its headers
 * every few seconds would hold a connection (and, 32 of them, every
 * connection one address may have) for as long as it likes.  Each
 * connection is kept here from the moment it opens, or its last answer is
 * sent, until its request has arrived whole; a watchdog thread shuts down
 * the socket of any still arriving after the deadline, which ends the
 * connection the next time the server reads it.  A connection whose
 * request is being answered is not cut. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "web/web_int.h"

static void *watch(void *arg)
{
	struct sw_web *w = arg;
	struct sw__web_conns *t = &w->conns;
	pthread_mutex_lock(&t->lock);
	while (!t->quit) {
		double now = sw_now();
		for (size_t i = 0; i < SW__WEB_CONNS; i++) {
			struct sw__web_conn *s = &t->c[i];
			if (!s->used || s->answering || s->cut || now - s->since <= t->deadline_s)
				continue;
			/* the fd is the connection's while its slot is used: the
			 * server drops the slot (under this lock) before it
			 * closes the socket */
			(void)shutdown(s->fd, SHUT_RDWR);
			s->cut = true;
			t->cuts++;
		}
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250 * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&t->wake, &t->lock, &until);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int sw__web_conns_start(struct sw_web *w, unsigned deadline_s, struct sw_err *err)
{
	struct sw__web_conns *t = &w->conns;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	t->deadline_s = deadline_s ? deadline_s : SW_WEB_REQUEST_DEADLINE;
	t->inited = true;
	if (pthread_create(&t->dog, NULL, watch, w) != 0)
		return sw_err_set(err, SW_EIO, "cannot start the request deadline's thread");
	t->running = true;
	return 0;
}

void sw__web_conns_stop(struct sw_web *w)
{
	struct sw__web_conns *t = &w->conns;
	if (!t->inited)
		return;
	if (t->running) {
		pthread_mutex_lock(&t->lock);
		t->quit = true;
		pthread_cond_signal(&t->wake);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->dog, NULL);
		t->running = false;
	}
	for (size_t i = 0; i < SW__WEB_CONNS; i++)
		t->c[i].fd = -1;
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	t->inited = false;
}

void *sw__web_conns_open(struct sw_web *w, int fd)
{
	struct sw__web_conns *t = &w->conns;
	struct sw__web_conn *slot = NULL;
	pthread_mutex_lock(&t->lock);
	for (size_t i = 0; i < SW__WEB_CONNS && !slot; i++) {
		if (!t->c[i].used) {
			slot = &t->c[i];
			slot->used = true;
			slot->fd = fd;
			slot->since = sw_now();
			slot->answering = false;
			slot->cut = false;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return slot; /* NULL past the table: MHD's own limit is lower */
}

void sw__web_conns_close(struct sw_web *w, void *slot)
{
	struct sw__web_conn *s = slot;
	if (!s)
		return;
	pthread_mutex_lock(&w->conns.lock);
	s->used = false;
	s->fd = -1;
	pthread_mutex_unlock(&w->conns.lock);
}

void sw__web_conns_answering(struct sw_web *w, void *slot, bool answering)
{
	struct sw__web_conn *s = slot;
	if (!s)
		return;
	pthread_mutex_lock(&w->conns.lock);
	s->answering = answering;
	s->since = sw_now(); /* answered: the next request's time starts */
	pthread_mutex_unlock(&w->conns.lock);
}
