-- The example schema `npm start` loads: a small todo list with users.
CREATE TABLE users (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    email TEXT
);

CREATE TABLE todos (
    id INTEGER NOT NULL PRIMARY KEY,
    user_id INTEGER,
    title TEXT NOT NULL DEFAULT '',
    done BOOLEAN NOT NULL DEFAULT false,
    created_at TIMESTAMP
);

CREATE INDEX todos_user ON todos (user_id);
