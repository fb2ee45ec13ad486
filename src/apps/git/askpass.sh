#!/bin/sh
# GIT_ASKPASS helper: answers git's credential questions from the environment the wrapper
# set from its secret store. Nothing here is typed by a person or chosen by a model.
case "$1" in
  Username*) printf '%s\n' "$LIFT_GIT_USERNAME" ;;
  *) printf '%s\n' "$LIFT_GIT_PASSWORD" ;;
esac
